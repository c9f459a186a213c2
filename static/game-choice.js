/* Tonk Ledger, start form: the game first, then that game's presets. Progressive enhancement
 * only: without it every game's part shows and the server reads the chosen game's fields.
 * Each [data-game-part="<game>"] is shown only while that game's radio is checked. */
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  ready(function () {
    var choice = document.querySelector("[data-game-choice]");
    if (!choice) return;
    var form = choice.closest("form");

    function show() {
      var checked = choice.querySelector("input[name=game]:checked");
      var game = checked ? checked.value : "tonk";
      form.querySelectorAll("[data-game-part]").forEach(function (part) {
        part.hidden = part.getAttribute("data-game-part") !== game;
      });
    }

    choice.addEventListener("change", show);
    show();
  });
})();
