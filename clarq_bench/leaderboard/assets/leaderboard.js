/* clarq leaderboard: sortable tables and the dialogue filter.
   Reads only attributes and textContent written by the site builder; never builds HTML from strings. */
(function () {
  "use strict";

  function cellKey(row, index, numeric) {
    var cell = row.cells[index];
    var raw = cell ? cell.getAttribute("data-value") : null;
    if (raw === null) { raw = cell ? cell.textContent : ""; }
    if (numeric) {
      var n = parseFloat(raw);
      return isNaN(n) ? null : n;
    }
    return raw.toLowerCase();
  }

  function sortBy(table, th, index) {
    var numeric = th.getAttribute("data-type") === "number";
    var current = th.getAttribute("aria-sort");
    var first = th.getAttribute("data-first") || (numeric ? "descending" : "ascending");
    var order = current ? (current === "ascending" ? "descending" : "ascending") : first;
    var sign = order === "ascending" ? 1 : -1;
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellKey(a, index, numeric), y = cellKey(b, index, numeric);
      if (x === y) { return 0; }
      if (x === null) { return 1; }   /* blanks last, whatever the order */
      if (y === null) { return -1; }
      return (x < y ? -1 : 1) * sign;
    });
    rows.forEach(function (row, position) {
      body.appendChild(row);
      var rank = row.querySelector("td.rank");
      if (rank) { rank.textContent = String(position + 1); }
    });
    Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (other) {
      other.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", order);
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.querySelectorAll("thead th"), function (th, index) {
      if (th.hasAttribute("data-nosort")) { return; }
      th.classList.add("sort-key");
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th, index); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, th, index); }
      });
    });
  });

  var dialogues = Array.prototype.slice.call(document.querySelectorAll("details.dialogue"));
  var failures = document.getElementById("only-failures");
  var language = document.getElementById("language-filter");
  var shown = document.getElementById("shown-count");
  /* the viewer's extra filters: <select data-filter="data-ATTR">, a dialogue shows when its attribute matches */
  var selects = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));

  var search = document.getElementById("dialogue-search");
  var sorter = document.getElementById("dialogue-sort");
  var list = document.getElementById("dialogue-list");

  function matches(dialogue, words) {
    if (!words) { return true; }
    var text = ((dialogue.getAttribute("data-id") || "") + " " + dialogue.textContent).toLowerCase();
    return words.split(/\s+/).every(function (word) { return text.indexOf(word) >= 0; });
  }

  function sortKey(dialogue, how) {
    var number = function (name) { return parseFloat(dialogue.getAttribute(name) || "0") || 0; };
    if (how === "outcome") { return number("data-success"); }
    if (how === "type") { return number("data-type"); }
    if (how === "turns") { return -number("data-turns"); }
    return 0;
  }

  function applySort() {
    if (!list || !sorter) { return; }
    var how = sorter.value;
    var order = dialogues.map(function (dialogue, position) { return [sortKey(dialogue, how), position, dialogue]; });
    order.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });  /* stable: ties keep the played order */
    order.forEach(function (item) { list.appendChild(item[2]); });
  }

  function applyFilter() {
    var count = 0;
    var words = search ? search.value.trim().toLowerCase() : "";
    dialogues.forEach(function (dialogue) {
      var hide = !matches(dialogue, words) ||
        (failures && failures.checked && dialogue.getAttribute("data-success") === "1") ||
        (language && language.value && dialogue.getAttribute("data-lang") !== language.value) ||
        selects.some(function (select) {
          return select.value && dialogue.getAttribute(select.getAttribute("data-filter")) !== select.value;
        });
      dialogue.hidden = Boolean(hide);
      if (!hide) { count += 1; }
    });
    if (shown) { shown.textContent = String(count); }
  }

  if (failures) { failures.addEventListener("change", applyFilter); }
  if (language) { language.addEventListener("change", applyFilter); }
  selects.forEach(function (select) { select.addEventListener("change", applyFilter); });
  if (search) { search.addEventListener("input", applyFilter); }
  if (sorter) { sorter.addEventListener("change", applySort); }
  if (dialogues.length) {
    if (failures && window.location.hash === "#failures") { failures.checked = true; }
    applyFilter();
    var target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
    if (target && target.tagName === "DETAILS") { target.open = true; target.scrollIntoView(); }
  }
})();
