/* As-built overlay on the topology page: a toggle that marks miswired and missing links.
 *
 * Reads GET /api/versions/{id}/asbuilt/link-states/ (the latest as-built check; links keyed
 * "link:<link id>", the id of the topology's single-link edges) and, while the toggle is on, gives
 * those edges the classes asbuilt-miswired / asbuilt-missing (edges drawn later, when a group is
 * opened, are marked as they are added). The states are also announced as the document event
 * "fabricweb:asbuilt-states" (detail: the API's payload, or null when switched off), so any drawing
 * of the topology can show them.
 */
(function () {
  "use strict";
  const toggle = document.getElementById("asbuilt-overlay-toggle");
  const status = document.getElementById("asbuilt-overlay-status");
  if (!toggle) return;
  let links = null;
  let styled = false;

  function topology() {
    return window.fabricwebTopology && window.fabricwebTopology.cy ? window.fabricwebTopology.cy : null;
  }

  function mark(edges) {
    if (!links) return;
    edges.forEach(function (edge) {
      const state = links[edge.id()];
      if (state) edge.addClass("asbuilt-" + state.state);
    });
  }

  function apply() {
    const cy = topology();
    if (!cy) return;
    if (!styled) {
      cy.style()
        .selector("edge.asbuilt-miswired").style({ "line-color": "#dc2626", "width": 5, "z-index": 20 })
        .selector("edge.asbuilt-missing").style({ "line-color": "#dc2626", "line-style": "dashed", "width": 5, "z-index": 20 })
        .update();
      cy.on("add", "edge", function (event) { mark(event.target); });
      styled = true;
    }
    cy.edges().removeClass("asbuilt-miswired asbuilt-missing");
    mark(cy.edges());
  }

  toggle.addEventListener("change", function () {
    if (!toggle.checked) {
      links = null;
      const cy = topology();
      if (cy) cy.edges().removeClass("asbuilt-miswired asbuilt-missing");
      status.textContent = "";
      document.dispatchEvent(new CustomEvent("fabricweb:asbuilt-states", { detail: null }));
      return;
    }
    status.textContent = gettext("Loading the as-built check…");
    fetch(toggle.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (payload) {
        if (payload.check === null) {
          status.textContent = gettext("No as-built check yet.");
          return;
        }
        links = payload.links;
        apply();
        status.textContent = interpolate(gettext("%(miswired)s miswired, %(missing)s missing (%(pct)s %% verified)"),
          { miswired: payload.counts.miswired, missing: payload.counts.missing, pct: payload.verified_pct }, true);
        document.dispatchEvent(new CustomEvent("fabricweb:asbuilt-states", { detail: payload }));
      })
      .catch(function () {
        status.textContent = gettext("The as-built check could not be loaded.");
      });
  });
})();
