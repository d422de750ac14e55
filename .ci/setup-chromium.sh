#!/usr/bin/env bash
# CI: Debian's chromium for the browser tests (tests/browser). Never fails the run:
# without chromium the browser tests skip with a clear message.
if [ -x /usr/bin/chromium ]; then
    echo "setup-chromium: chromium already installed ($(/usr/bin/chromium --version 2>/dev/null || echo '?'))"
    exit 0
fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup-chromium: not root or no apt-get; browser tests will be skipped (chromium missing)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; then
    echo "setup-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
else
    echo "setup-chromium: could not install chromium with apt-get; browser tests will be skipped"
fi
exit 0
