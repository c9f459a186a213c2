/* Tonk Ledger at the table: a message about a hand shows beside that hand; the screen stays awake while a night is open (Screen Wake Lock,
   where the browser has it; asked again whenever the page comes back into view), and the
   phone gives a short buzz when a hand was saved (where it can vibrate). */
(function () {
  "use strict";
  var body = document.body;
  // A hand saved, corrected, restored or counted again: the form that sends it leaves a mark
  // for the page that answers, which buzzes if it brings a success message (in any language).
  var MARK = "tonk-buzz";
  var marked = false;
  try {
    marked = sessionStorage.getItem(MARK) === "1";
    sessionStorage.removeItem(MARK);
  } catch (e) { /* storage off: no buzz */ }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-offline-save], form.restore-form, form.redo-form")) return;
    try { sessionStorage.setItem(MARK, "1"); } catch (e) { /* storage off: no buzz */ }
  });
  // After a correction the page opens at the corrected hand (#hand-4): its message goes there
  // too (first thing in that hand's row), instead of staying at the top, out of sight; the
  // page's scroll-padding keeps it below the sticky bar.
  var flashes = document.querySelector(".flashes");
  var target = location.hash && document.getElementById(location.hash.slice(1));
  if (flashes && target) {
    target.insertBefore(flashes, target.firstChild);
    flashes.scrollIntoView({ block: "start" });
  }
  if (!body || body.getAttribute("data-night-status") !== "open") return;

  var lock = null;
  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      document.documentElement.setAttribute("data-wake-lock", "on");
      sentinel.addEventListener("release", function () {
        lock = null;
        document.documentElement.removeAttribute("data-wake-lock");
      });
    }).catch(function () { /* battery saver or not allowed: the screen sleeps as usual */ });
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();

  if (marked && document.querySelector(".flash-success") && navigator.vibrate) navigator.vibrate(40);
})();
