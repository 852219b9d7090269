/* The Review panel of a design version (templates/reviews/_review_panel.html).
 *
 * - Forms marked data-review-form post with fetch (X-Requested-With: fetch); the server always
 *   answers 200 with JSON {ok, panel, badge}, and the panel and the header badge are replaced in
 *   place, errors included. If fetch itself fails, the form is submitted the ordinary way.
 * - The anchor pickers show only the picker of the chosen anchor type; the device picker suggests
 *   names from /api/versions/{id}/devices/?name=...
 * - A BOM-line anchor scrolls to that line of the BOM table and highlights it.
 * Loaded once per page; everything is delegated from the document, so replaced panels keep working.
 */
(function () {
  "use strict";
  if (window.fabricwebReviews) { return; }
  window.fabricwebReviews = true;

  function panelOf(element) { return element.closest("[data-review-panel]"); }

  function syncPickers(panel) {
    if (!panel) { return; }
    var select = panel.querySelector("select[name=anchor_type]");
    var chosen = select ? select.value : "none";
    panel.querySelectorAll("[data-anchor-picker]").forEach(function (picker) {
      picker.hidden = picker.dataset.anchorPicker !== chosen;
    });
  }

  function syncAll() { document.querySelectorAll("[data-review-panel]").forEach(syncPickers); }

  function replacePanel(panel, data) {
    var holder = document.createElement("div");
    holder.innerHTML = data.panel;
    var fresh = holder.querySelector("[data-review-panel]");
    if (fresh) { panel.replaceWith(fresh); syncPickers(fresh); }
    if (data.badge) {
      document.querySelectorAll(".panel-header[data-panel=review-state] .review-state").forEach(function (badge) {
        var badgeHolder = document.createElement("div");
        badgeHolder.innerHTML = data.badge;
        var freshBadge = badgeHolder.querySelector(".review-state");
        if (freshBadge) { badge.replaceWith(freshBadge); }
      });
    }
    return fresh;
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("[data-review-form]") || form.dataset.plain === "1") { return; }
    var panel = panelOf(form);
    if (!panel || !window.fetch) { return; }
    event.preventDefault();
    var body = new FormData(form);
    if (event.submitter && event.submitter.name) { body.append(event.submitter.name, event.submitter.value); }
    form.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
    // getAttribute: a control named "action" (the review buttons) shadows form.action.
    fetch(form.getAttribute("action"), {
      method: "POST", body: body, credentials: "same-origin", headers: {"X-Requested-With": "fetch"}
    }).then(function (response) {
      if (!response.ok) { throw new Error("HTTP " + response.status); }
      return response.json();
    }).then(function (data) {
      var fresh = replacePanel(panel, data);
      if (fresh && !data.ok) {
        var error = fresh.querySelector(".has-error input, .has-error textarea, .has-error select");
        if (error) { error.focus(); }
      }
    }).catch(function () {
      // Let the server answer the ordinary way (a page with the outcome or the errors).
      form.dataset.plain = "1";
      if (event.submitter && event.submitter.name) {
        var hidden = document.createElement("input");
        hidden.type = "hidden"; hidden.name = event.submitter.name; hidden.value = event.submitter.value;
        form.appendChild(hidden);
      }
      HTMLFormElement.prototype.submit.call(form);
    });
  });

  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-review-panel] select[name=anchor_type]")) { syncPickers(panelOf(event.target)); }
  });

  var suggestTimer = null;
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches("[data-review-panel] input[name=anchor_device]")) { return; }
    var panel = panelOf(input);
    var list = document.getElementById(input.getAttribute("list") || "");
    var query = input.value.trim();
    window.clearTimeout(suggestTimer);
    if (!list || query.length < 2) { return; }
    suggestTimer = window.setTimeout(function () {
      var url = panel.dataset.devicesUrl + "?" + new URLSearchParams({name: query, limit: "20"}).toString();
      fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (response) { return response.ok ? response.json() : {results: []}; })
        .then(function (data) {
          list.innerHTML = "";
          (data.results || []).forEach(function (device) {
            var option = document.createElement("option");
            option.value = device.name;
            list.appendChild(option);
          });
        })
        .catch(function () { list.innerHTML = ""; });
    }, 200);
  });

  document.addEventListener("click", function (event) {
    var anchor = event.target.closest("[data-bom-sku]");
    if (!anchor) { return; }
    var sku = anchor.dataset.bomSku;
    var row = Array.prototype.find.call(document.querySelectorAll("#bom-table tr[data-sku]"), function (tr) {
      return tr.dataset.sku === sku;
    });
    if (!row) { return; }
    event.preventDefault();
    row.scrollIntoView({behavior: "smooth", block: "center"});
    row.classList.add("review-highlight");
    window.setTimeout(function () { row.classList.remove("review-highlight"); }, 2500);
  });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", syncAll); } else { syncAll(); }
})();
