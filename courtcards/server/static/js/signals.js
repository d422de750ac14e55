// What tells a player it is their turn when they look elsewhere: the tab's title ("● Your turn · Rank")
// and icon, an optional sound, and optional browser notifications (permission asked only on a click).
import { el } from "./util.js";

const SOUND_KEY = "courtcards:sound";
const NOTIFY_KEY = "courtcards:notify";
const DOT_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#c0392b"/></svg>');
const PLAIN_ICON = "data:,";

const sig = { yourTurn: false, audio: null };

function icon() {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = el("link", { rel: "icon" });
    document.head.append(link);
  }
  return link;
}

function beep() {
  try {
    sig.audio = sig.audio || new AudioContext();
    const ctx = sig.audio;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  } catch {
    // no sound here: the title and icon still say it
  }
}

function notify(title) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  if (localStorage.getItem(NOTIFY_KEY) !== "1" || !document.hidden) return;
  try {
    const n = new Notification("Your turn", { body: title, tag: "courtcards-turn" });
    n.onclick = () => window.focus();
  } catch {
    // some browsers make notifications only from a service worker: the title still says it
  }
}

// Called with every state: the title, the icon, and on the turn's start the sound and the notification.
export function turnSignal(yourTurn, gameTitle, plainTitle) {
  document.title = yourTurn ? `● Your turn · ${gameTitle}` : plainTitle;
  icon().href = yourTurn ? DOT_ICON : PLAIN_ICON;
  document.body.dataset.yourTurn = yourTurn ? "1" : "0";
  if (yourTurn && !sig.yourTurn) {
    if (localStorage.getItem(SOUND_KEY) === "1") beep();
    notify(`${gameTitle}: it is your turn.`);
  }
  sig.yourTurn = yourTurn;
}

export function setupSignals(soundBox, notifyButton) {
  soundBox.checked = localStorage.getItem(SOUND_KEY) === "1";
  soundBox.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, soundBox.checked ? "1" : "0");
    if (soundBox.checked) beep(); // the click lets the page play sound, and says what it sounds like
  });
  if (!("Notification" in window)) return;
  const show = () => {
    const on = Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
    notifyButton.hidden = Notification.permission === "denied";
    notifyButton.textContent = on ? "Notifications on (turn off)" : "Notify me on my turn";
  };
  notifyButton.addEventListener("click", async () => {
    if (Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1") {
      localStorage.setItem(NOTIFY_KEY, "0");
    } else {
      // asked only here, on the player's click
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "1" : "0");
    }
    show();
  });
  show();
}
