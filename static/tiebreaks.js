// The tie-break chain of the new-table form, made pleasant: a row's category field shows
// only for a category tie-break (offering the categories typed above), rows can be moved
// up and down, and only one empty row waits below the chosen ones. Without this script
// every row shows and the host orders the chain by what each row holds.
(function () {
  "use strict";

  function rowsOf(chain) {
    return Array.prototype.slice.call(chain.querySelectorAll("[data-tiebreak-row]"));
  }

  function kindOf(row) {
    return row.querySelector("[data-tiebreak-kind]");
  }

  function categoryOf(row) {
    return row.querySelector("[data-tiebreak-category] input");
  }

  function show(chain) {
    var rows = rowsOf(chain);
    var emptyShown = false;
    rows.forEach(function (row, index) {
      var chosen = kindOf(row).value !== "";
      row.hidden = !chosen && emptyShown;
      if (!chosen) {
        emptyShown = true;
      }
      row.querySelector("[data-tiebreak-category]").hidden =
        kindOf(row).value.indexOf("by=category") !== 0;
      var move = row.querySelector("[data-tiebreak-move]");
      move.hidden = !chosen;
      move.querySelector("[data-move='-1']").disabled = index === 0;
      var next = rows[index + 1];
      move.querySelector("[data-move='1']").disabled = !next || kindOf(next).value === "";
    });
  }

  function offerCategories(chain) {
    var typed = document.getElementById("categories");
    var list = chain.querySelector("datalist");
    if (!typed || !list) {
      return;
    }
    list.replaceChildren();
    typed.value.split("\n").forEach(function (line) {
      var name = line.trim();
      if (name) {
        var option = document.createElement("option");
        option.value = name;
        list.appendChild(option);
      }
    });
  }

  function swap(first, second) {
    [kindOf, categoryOf].forEach(function (part) {
      var value = part(first).value;
      part(first).value = part(second).value;
      part(second).value = value;
    });
  }

  function setUp(chain) {
    chain.addEventListener("change", function () {
      show(chain);
    });
    chain.addEventListener("click", function (event) {
      var button = event.target.closest("[data-move]");
      if (!button) {
        return;
      }
      var rows = rowsOf(chain);
      var index = rows.indexOf(button.closest("[data-tiebreak-row]"));
      var other = rows[index + Number(button.getAttribute("data-move"))];
      if (other) {
        swap(rows[index], other);
        show(chain);
        kindOf(other).focus();
      }
    });
    var typed = document.getElementById("categories");
    if (typed) {
      typed.addEventListener("input", function () {
        offerCategories(chain);
      });
    }
    offerCategories(chain);
    show(chain);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-tiebreaks]").forEach(setUp);
  });
})();
