/* The settle page's hand-offs (issue 22), progressive enhancement over the page that works without it:

   - "Share the settle-up" (shown only with JavaScript, .js-only): the phone's share sheet (Web Share API) with the settle-up text in the
     page's language (the button's data-text, rendered with the live region, so it follows the
     payments), else the clipboard, saying so in the status line; the link to the text stays.
   - "Did you pay?" on return: tapping a payee's app button remembers its line (sessionStorage,
     this tab); when the page is seen again (visibilitychange, pageshow from the back/forward
     cache) or loaded again (back from the app's web page), that line's hand-off opens with its question "Did {payer} pay {payee} {amount}?"
     brought into view and its "Yes, paid" button focused. Nothing is recorded unless the person
     taps yes; the form carries its submission key, so a double tap is one payment.

   Events are delegated from the document: the live region re-renders the plan in place. */
(function () {
  "use strict";
  var KEY = "tonk-hand-off";

  function night() { return document.body.getAttribute("data-night") || ""; }

  function say(text) {
    var status = document.getElementById("share-settle-status");
    if (status) status.textContent = text;
  }

  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error("copy"));
    });
  }

  function share(button) {
    var text = button.getAttribute("data-text") || "";
    if (navigator.share) {
      navigator.share({ text: text }).catch(function (err) {
        if (err && err.name === "AbortError") return; // the person closed the share sheet
        copy(text).then(function () { say(button.getAttribute("data-copied")); });
      });
      return;
    }
    copy(text).then(function () { say(button.getAttribute("data-copied")); }, function () {
      var link = document.getElementById("settle-text-link");
      if (link) window.location.href = link.href; // no clipboard either: the text itself
    });
  }

  function remember(app) {
    var line = app.closest("details.hand-off");
    if (!line) return;
    try { sessionStorage.setItem(KEY, JSON.stringify({ night: night(), line: line.id })); } catch (e) { /* private mode */ }
  }

  function forget() {
    try { sessionStorage.removeItem(KEY); } catch (e) { /* private mode */ }
  }

  function ask() {
    if (document.visibilityState === "hidden") return;
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { kept = null; }
    if (!kept || kept.night !== night()) return;
    var line = document.getElementById(kept.line);
    var form = line && line.querySelector("form.did-you-pay");
    forget(); // asked once: the question stays in the open hand-off
    if (!form) return; // that line is paid or gone
    line.open = true;
    form.classList.add("asking");
    form.scrollIntoView({ block: "center" });
    var yes = form.querySelector("button[type=submit]");
    if (yes) yes.focus({ preventScroll: true });
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var button = target.closest("#share-settle-up");
    if (button) { share(button); return; }
    var app = target.closest("a.hand-off-app");
    if (app) remember(app);
  });
  document.addEventListener("submit", function (event) {
    if (event.target instanceof Element && event.target.matches("form.did-you-pay")) forget();
  });
  document.addEventListener("visibilitychange", ask);
  window.addEventListener("pageshow", function (event) { if (event.persisted) ask(); });
  // back in the same tab after the app's web page (a fresh load, not the back/forward cache)
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ask);
  else ask();
})();
