/* The racks pages: zoom and pan of the hall's floor plan, and the highlighted device of a rack elevation.
 *
 * The floor plan is an SVG drawn on the server (apps.racks.svg); this script only moves its viewBox:
 * drag to pan, the wheel or the +/− buttons to zoom around the pointer (or the centre), "Fit" shows the
 * whole hall. Rack numbers and row names (classes "rack-label", "row-label", LABEL_UNITS drawing units
 * high) are shown once they are at least MIN_TEXT_PX on screen. A click on a rack follows its link to the
 * elevation, unless the pointer was dragging. The first view is the whole hall when its labels are
 * legible that way, else the hall's first rows at the zoom where they are (and a note that "Fit" shows
 * it whole).
 *
 * window.fabricwebRacks exposes `ready` and `firstDrawMs` (performance.now() once the page, fitted, has been
 * painted: the second animation frame) for tests and the benchmark.
 */
(function () {
  "use strict";
  const api = { ready: false, firstDrawMs: null };
  window.fabricwebRacks = api;

  // A rack elevation: the device the user came for (?device=) is outlined in the drawing.
  const elevation = document.getElementById("rack-elevation");
  if (elevation && elevation.dataset.highlight) {
    for (const item of elevation.querySelectorAll("g.item")) {
      if (item.dataset.item === elevation.dataset.highlight) item.classList.add("highlight");
    }
  }

  // Drawn: the frame after the first one that painted the page (two animation frames).
  function whenDrawn(callback) {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      api.firstDrawMs = performance.now();
      api.ready = true;
      callback();
    }));
  }

  const holder = document.getElementById("floorplan");
  const svg = holder ? holder.querySelector("svg") : null;
  if (!svg) {
    whenDrawn(() => {});
    return;
  }
  const full = svg.viewBox.baseVal;
  const whole = { x: full.x, y: full.y, w: full.width, h: full.height };
  const view = Object.assign({}, whole);
  const firstLabel = svg.querySelector("text.rack-label");
  const LABEL_UNITS = firstLabel ? Number(firstLabel.getAttribute("font-size")) : 11;
  const MIN_TEXT_PX = 11;  // smaller, a name can't be read

  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.setAttribute("preserveAspectRatio", "xMidYMin meet");

  function scale() {
    const box = svg.getBoundingClientRect();
    return Math.min(box.width / view.w, box.height / view.h);
  }

  function apply() {
    svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.w} ${view.h}`);
    svg.classList.toggle("labels", LABEL_UNITS * scale() >= MIN_TEXT_PX - 0.01);
  }

  function fit() {
    Object.assign(view, whole);
    apply();
  }

  // The first view: the whole hall when its names can be read that way; else its first rows at the zoom
  // where they can, and a note that "Fit" shows it whole.
  function firstView() {
    const box = svg.getBoundingClientRect();
    const wholeScale = Math.min(box.width / whole.w, box.height / whole.h);
    const legible = MIN_TEXT_PX / LABEL_UNITS;
    if (wholeScale >= legible || !box.width) {
      fit();
      return;
    }
    Object.assign(view, { x: whole.x, y: whole.y, w: box.width / legible, h: box.height / legible });
    apply();
    const note = document.getElementById("floorplan-partial");
    if (note) note.hidden = false;
  }

  function zoom(factor, cx, cy) {
    const box = svg.getBoundingClientRect();
    const s = scale();
    // The point under (cx, cy) stays where it is.
    const px = view.x + (cx - box.left - (box.width - view.w * s) / 2) / s;
    const py = view.y + (cy - box.top) / s;
    const w = Math.min(whole.w * 4, Math.max(whole.w / 400, view.w / factor));
    const h = view.h * (w / view.w);
    view.x = px - (px - view.x) * (w / view.w);
    view.y = py - (py - view.y) * (h / view.h);
    view.w = w;
    view.h = h;
    apply();
  }

  function centre() {
    const box = svg.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }

  holder.addEventListener("wheel", (event) => {
    event.preventDefault();
    zoom(event.deltaY < 0 ? 1.25 : 0.8, event.clientX, event.clientY);
  }, { passive: false });

  let drag = null;
  let dragged = false;
  holder.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    drag = { x: event.clientX, y: event.clientY, vx: view.x, vy: view.y, s: scale() };
    dragged = false;
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!dragged && Math.hypot(dx, dy) < 4) return;
    dragged = true;
    holder.classList.add("panning");
    view.x = drag.vx - dx / drag.s;
    view.y = drag.vy - dy / drag.s;
    apply();
  });
  window.addEventListener("pointerup", () => {
    drag = null;
    holder.classList.remove("panning");
  });
  // A drag that ends on a rack is not a click on it.
  holder.addEventListener("click", (event) => {
    if (dragged) { event.preventDefault(); event.stopPropagation(); dragged = false; }
  }, true);

  holder.addEventListener("keydown", (event) => {
    const step = view.w / 10;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) {
      view.x += moves[event.key][0];
      view.y += moves[event.key][1];
      apply();
      event.preventDefault();
    } else if (event.key === "+" || event.key === "=") {
      zoom(1.25, ...centre());
    } else if (event.key === "-") {
      zoom(0.8, ...centre());
    }
  });

  document.getElementById("floorplan-zoom-in").addEventListener("click", () => zoom(1.25, ...centre()));
  document.getElementById("floorplan-zoom-out").addEventListener("click", () => zoom(0.8, ...centre()));
  document.getElementById("floorplan-fit").addEventListener("click", fit);

  firstView();
  api.zoom = zoom;
  api.fit = fit;
  api.view = view;
  whenDrawn(() => { holder.dataset.ready = "true"; });
})();
