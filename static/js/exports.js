// Export panels: refresh the list of exports while one is still being written.
(function () {
  "use strict";
  document.querySelectorAll(".exports[data-exports-url]").forEach(function (panel) {
    var list = panel.querySelector(".exports-list");
    function refresh() {
      if (!list.querySelector("[data-active]")) { return; }
      fetch(panel.dataset.exportsUrl, {headers: {"X-Requested-With": "fetch"}, credentials: "same-origin"})
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) { if (html !== null) { list.innerHTML = html; } })
        .finally(function () { window.setTimeout(refresh, 2000); });
    }
    window.setTimeout(refresh, 2000);
  });
})();
