/* Take the picture away: the current topology view and the schematic as SVG and PNG files.
 *
 * The view's SVG is what the canvas shows, in screen pixels: boxes and open groups, edges with the
 * link counts that are drawn, nodes with their labels (only labels drawn on screen, so none is
 * smaller than on screen), under a title with the design's name and version and above a legend.
 * The schematic's SVG comes from the server whole (apps.designs.api.topology.drawing). PNG files are
 * the SVG drawn at twice the size on a canvas (blob: images are allowed by the page's CSP).
 *
 * window.fabricwebExport: viewSvg() and schematicSvg() return the documents as text (for tests).
 */
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("topology-config").textContent);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const FONT = "Noto Sans, Noto Sans CJK SC, Source Han Sans SC, Microsoft YaHei, sans-serif";
  const HEADER = 64;
  const LEGEND = 44;

  const esc = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  const num = (n) => Number(n).toFixed(1);

  function text(x, y, content, size, options) {
    const o = options || {};
    const halo = o.halo ? ' stroke="#ffffff" stroke-width="3" paint-order="stroke"' : "";
    return `<text x="${num(x)}" y="${num(y)}" font-size="${num(size)}" text-anchor="${o.anchor || "middle"}" `
      + `font-weight="${o.weight || "normal"}" fill="${o.fill || "#1d2430"}" class="${o.cls || "label"}"${halo}>`
      + `${esc(content)}</text>`;
  }

  function multiline(x, y, lines, size, options) {
    const top = y - ((lines.length - 1) * size * 1.2) / 2 + size * 0.35;
    return lines.map((line, i) => text(x, top + i * size * 1.2, line, size, options)).join("");
  }

  function legend(y) {
    const parts = [];
    let x = 12;
    const chip = (colour, label) => {
      parts.push(`<rect x="${x}" y="${y - 11}" width="14" height="14" rx="2" fill="${colour}" stroke="#8796a8"/>`);
      parts.push(text(x + 20, y, label, 12, { anchor: "start" }));
      x += 30 + String(label).length * 8;
    };
    const title = (label) => { parts.push(text(x, y, label, 12, { anchor: "start", weight: "bold" })); x += 12 + label.length * 8; };
    title(gettext("Rails:"));
    for (let rail = 0; rail < config.rails; rail++) chip(config.railColours[rail % config.railColours.length], String(rail));
    if (config.planes > 1) {
      title(gettext("Planes:"));
      for (let plane = 0; plane < config.planes; plane++) chip(config.planeColours[plane % config.planeColours.length], String(plane));
    }
    title(gettext("Devices:"));
    const roles = { server: gettext("server"), leaf: gettext("leaf"), spine: gettext("spine"), core: gettext("core") };
    for (const role of ["server", "leaf", "spine", "core"]) {
      if (role === "core" && config.tiers < 3) continue;
      chip(config.roleFill[role], roles[role]);
    }
    return `<g class="legend">${parts.join("")}</g>`;
  }

  function viewSvg() {
    const topology = window.fabricwebTopology;
    const cy = topology.cy;
    const zoom = cy.zoom();
    const width = Math.round(cy.width());
    const height = Math.round(cy.height());
    const drawn = new Map(topology.labelSizes().map((l) => [l.id, l]));
    const inView = (bb) => bb.x2 >= 0 && bb.x1 <= width && bb.y2 >= 0 && bb.y1 <= height;
    const boxes = [], edges = [], counts = [], nodes = [];
    cy.nodes().forEach((n) => {
      const label = drawn.get(n.id());
      const lines = label && label.drawn ? label.text.split("\n") : [];
      if (n.isParent() || n.data("kind") === "box") {
        const bb = n.renderedBoundingBox({ includeLabels: false, includeOverlays: false });
        if (!inView(bb)) return;
        const dashed = n.isParent() ? ' stroke-dasharray="6 4"' : "";
        boxes.push(`<g class="box"><rect x="${num(bb.x1)}" y="${num(bb.y1)}" width="${num(bb.w)}" height="${num(bb.h)}" `
          + `rx="6" fill="#64748b" fill-opacity="0.06" stroke="${n.data("border") || "#9aa8ba"}" stroke-width="1"${dashed}/>`
          + (lines.length ? text((bb.x1 + bb.x2) / 2, bb.y1 - 4, lines[0], label.px, { weight: "bold" }) : "") + "</g>");
        return;
      }
      const p = n.renderedPosition();
      const w = n.data("w") * zoom, h = n.data("h") * zoom;
      const bb = { x1: p.x - w / 2, x2: p.x + w / 2, y1: p.y - h / 2, y2: p.y + h / 2 };
      if (!inView(bb)) return;
      nodes.push(`<g class="node" data-id="${esc(n.id())}"><rect x="${num(bb.x1)}" y="${num(bb.y1)}" width="${num(w)}" `
        + `height="${num(h)}" rx="${num(Math.min(6, h / 4))}" fill="${n.data("fill")}" stroke="${n.data("border")}" `
        + `stroke-width="${n.data("borderWidth")}"/>` + (lines.length ? multiline(p.x, p.y, lines, label.px) : "") + "</g>");
    });
    cy.edges().forEach((e) => {
      const a = e.renderedSourceEndpoint(), b = e.renderedTargetEndpoint();
      const bb = { x1: Math.min(a.x, b.x), x2: Math.max(a.x, b.x), y1: Math.min(a.y, b.y), y2: Math.max(a.y, b.y) };
      if (!inView(bb)) return;
      edges.push(`<line x1="${num(a.x)}" y1="${num(a.y)}" x2="${num(b.x)}" y2="${num(b.y)}" stroke="${e.data("colour")}" `
        + `stroke-width="${num(Math.max(1, e.data("width") * zoom))}" stroke-opacity="0.7"/>`);
      const label = drawn.get(e.id());
      if (label && label.drawn) {
        const m = e.renderedMidpoint();
        counts.push(text(m.x, m.y + label.px * 0.35, label.text, label.px, { halo: true, fill: "#334155", cls: "count" }));
      }
    });
    const total = height + HEADER + LEGEND;
    const level = document.querySelector(`#topology-level option[value="${topology.level}"]`);
    const plane = document.getElementById("topology-plane");
    const subtitle = [level ? level.textContent : "", plane ? plane.selectedOptions[0].textContent : ""]
      .filter(Boolean).join(" · ");
    return `<?xml version="1.0" encoding="UTF-8"?>\n`
      + `<svg xmlns="${SVG_NS}" version="1.1" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}" `
      + `font-family="${FONT}" class="fabric-topology">\n<title>${esc(config.title)}</title>\n`
      + `<rect x="0" y="0" width="${width}" height="${total}" fill="#ffffff"/>\n`
      + text(12, 26, config.title, 18, { anchor: "start", weight: "bold", cls: "title" })
      + text(12, 48, subtitle, 12, { anchor: "start", fill: "#475569", cls: "subtitle" }) + "\n"
      + `<g class="view" transform="translate(0 ${HEADER})">\n${boxes.join("\n")}\n${edges.join("\n")}\n`
      + `${counts.join("\n")}\n${nodes.join("\n")}\n</g>\n`
      + `<g transform="translate(0 ${height + HEADER + 28})">${legend(0)}</g>\n</svg>\n`;
  }

  function schematicSvg() {
    const svg = document.querySelector("#schematic-figure svg");
    if (!svg) return null;
    return `<?xml version="1.0" encoding="UTF-8"?>\n` + new XMLSerializer().serializeToString(svg);
  }

  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  function svgBlob(svg) {
    return new Blob([svg], { type: "image/svg+xml;charset=utf-8" });
  }

  function pngOf(svg) {
    return new Promise((resolve, reject) => {
      const url = URL.createObjectURL(svgBlob(svg));
      const image = new Image();
      image.onload = () => {
        const canvas = document.createElement("canvas");
        canvas.width = image.naturalWidth * 2;
        canvas.height = image.naturalHeight * 2;
        const context = canvas.getContext("2d");
        context.scale(2, 2);
        context.drawImage(image, 0, 0);
        URL.revokeObjectURL(url);
        canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("PNG"))), "image/png");
      };
      image.onerror = () => { URL.revokeObjectURL(url); reject(new Error(gettext("The picture could not be drawn."))); };
      image.src = url;
    });
  }

  function status(message) {
    const el = document.getElementById("topology-status");
    if (el) el.textContent = message || "";
  }

  async function save(kind, what) {
    const svg = what === "view" ? viewSvg() : schematicSvg();
    if (!svg) return;
    const name = `${config.exportName}-${what === "view" ? "topology" : "schematic"}.${kind}`;
    if (kind === "svg") { download(svgBlob(svg), name); return; }
    try {
      download(await pngOf(svg), name);
    } catch (error) {
      status(interpolate(gettext("Could not export: %s"), [error.message]));
    }
  }

  for (const [id, kind, what] of [["export-view-svg", "svg", "view"], ["export-view-png", "png", "view"],
    ["export-schematic-svg", "svg", "schematic"], ["export-schematic-png", "png", "schematic"]]) {
    const el = document.getElementById(id);
    if (el) el.addEventListener("click", () => save(kind, what));
  }

  window.fabricwebExport = { viewSvg: viewSvg, schematicSvg: schematicSvg };
})();
