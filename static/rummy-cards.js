// The 13-card rummy card grid (templates/record_rummy.html): tapping a card adds it to that
// player's card field, at most as many times as the decks allow (two decks: twice; printed
// jokers: decks x jokers per deck); the backspace chip takes the last card back. The field stays
// the truth: typed cards count too, and the page works without this script (type the cards).
(function () {
  "use strict";
  function cardsOf(field) {
    return field.value.replace(/,/g, " ").split(/\s+/).filter(Boolean).map(function (c) { return c.toUpperCase(); });
  }
  function refresh(box) {
    var field = box.querySelector(".rummy-card-field");
    var grid = box.querySelector(".rummy-grid");
    var copies = Number(grid.dataset.copies), jokers = Number(grid.dataset.jokers);
    var counts = {};
    cardsOf(field).forEach(function (c) { counts[c] = (counts[c] || 0) + 1; });
    grid.querySelectorAll("[data-card]").forEach(function (chip) {
      var code = chip.dataset.card, n = counts[code] || 0;
      var most = code === "JK" ? jokers : copies;
      chip.querySelector(".chip-count").textContent = n ? "×" + n : "";
      chip.classList.toggle("picked", n > 0);
      chip.setAttribute("aria-pressed", n > 0 ? "true" : "false");
      chip.disabled = n >= most;
    });
  }
  function ready(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }
  ready(function () {
    document.querySelectorAll(".rummy-cards").forEach(function (box) {
      var field = box.querySelector(".rummy-card-field");
      var grid = box.querySelector(".rummy-grid");
      if (!field || !grid) return;
      grid.hidden = false;
      grid.addEventListener("click", function (event) {
        var chip = event.target.closest("button");
        if (!chip || chip.disabled) return;
        var cards = cardsOf(field);
        if (chip.hasAttribute("data-undo")) cards.pop();
        else cards.push(chip.dataset.card);
        field.value = cards.join(" ");
        refresh(box);
      });
      field.addEventListener("input", function () { refresh(box); });
      refresh(box);
    });
  });
})();
