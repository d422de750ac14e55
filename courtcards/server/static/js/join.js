// /join/{id}/{seat}: take that seat, keep its token in localStorage, go to the table.
import { api } from "./api.js";
import { playerWords, tokenKey } from "./util.js";

const parts = location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[1] || "");
const seat = Number(parts[2]);
const $ = (id) => document.getElementById(id);
const tablePath = `/table/${encodeURIComponent(tableId)}`;

async function main() {
  $("spectate").href = tablePath;
  $("name").value = localStorage.getItem("courtcards:name") || "";
  $("join-title").textContent = `Join table ${tableId}, seat ${seat + 1}`;
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("name").value.trim();
    localStorage.setItem("courtcards:name", name);
    $("join").disabled = true;
    try {
      const res = await api.join(tableId, { seat, name: name || null });
      localStorage.setItem(tokenKey(tableId), res.token);
      location.href = tablePath;
    } catch (err) {
      $("join-error").textContent = `Could not join: ${playerWords(err.message)}.`;
      $("join").disabled = false;
    }
  });
  $("name").focus();
  document.body.dataset.ready = "1";
  try {
    const { table } = await api.table(tableId);
    const info = table.seats[seat];
    $("join-info").textContent = `${table.title}, ${table.players} players. ` +
      (info && info.taken ? "This seat is already taken." : "");
  } catch (err) {
    $("join-info").textContent = err.message;
  }
}

main();
