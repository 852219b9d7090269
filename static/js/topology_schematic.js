/* The SuperPOD-style schematic under the topology: one scale unit in full and one overview panel per
 * plane, an SVG document drawn by the server (GET /api/versions/{id}/topology/schematic/), placed in
 * the page as SVG elements (not an image) so its texts are searchable and exported as they are.
 *
 * window.fabricwebSchematic: `ready` and `drawMs` (from asking to having it in the page).
 */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("topology-config").textContent);
  const figure = document.getElementById("schematic-figure");
  const status = document.getElementById("schematic-status");
  const api = { ready: false, drawMs: null, load: load };
  window.fabricwebSchematic = api;

  async function load() {
    const started = performance.now();
    status.textContent = gettext("Loading the schematic…");
    try {
      const response = await fetch(config.schematicUrl, { credentials: "same-origin", headers: { Accept: "image/svg+xml" } });
      const body = await response.text();
      if (!response.ok) throw new Error(String(response.status));
      const parsed = new DOMParser().parseFromString(body, "image/svg+xml");
      const svg = parsed.documentElement;
      if (svg.nodeName !== "svg") throw new Error(gettext("not a picture"));
      svg.setAttribute("role", "img");
      figure.replaceChildren(document.importNode(svg, true));
      status.textContent = "";
      api.drawMs = performance.now() - started;
      api.ready = true;
      figure.dataset.ready = "true";
    } catch (error) {
      status.textContent = interpolate(gettext("Could not load the schematic: %s"), [error.message]);
    }
  }
})();
