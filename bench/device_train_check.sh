#!/bin/bash
# One-off device check for `courtcards train --device cuda` (issue #31): runs a tiny training on the GPU and the
# same on the CPU with one seed and compares their metrics. Needs a Python with torch (CUDA build), numpy, typer, rich.
set -u
nvidia-smi -L || true
PY=${PY:-python3}
$PY -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())" || exit 3
$PY -c "import numpy, typer, rich, prompt_toolkit; print('deps ok')" || exit 4
OUT=${OUT:-/tmp/out}
for dev in cuda cpu; do
  PYTHONPATH=$PWD $PY -m courtcards train royale --games 400 --seed 5 --device $dev --hidden 64 --batch-games 16 \
    --eval-games 20 --eval-every 0 --out "$OUT/$dev" > "$OUT/$dev.log" 2>&1; echo "$dev rc=$?"; tail -n 3 "$OUT/$dev/metrics.csv"
done
PYTHONPATH=$PWD $PY - <<'PY'
import os, numpy as np
from courtcards.nn import load_network
out = os.environ.get("OUT", "/tmp/out")
a, b = load_network(f"{out}/cuda/network.npz"), load_network(f"{out}/cpu/network.npz")
print("max weight difference cuda vs cpu:", max(float(np.abs(x - y).max()) for (x, _), (y, _) in zip(a.weights, b.weights)))
PY
