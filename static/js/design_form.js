/* The design form: pickers that follow each other, and a live check of the inputs as they are typed.
 *
 * - Changing the server selects its default NIC.
 * - Each breakout list shows only the modes of its tier's switch (spine = leaf, core = spine when
 *   left on "same as").
 * - About 300 ms after the last change the form is posted to the estimate endpoint, which answers
 *   (always HTTP 200) with field errors, shown next to their fields, and the live panel's HTML.
 */
(function () {
  "use strict";
  const form = document.getElementById("design-form");
  if (!form) return;
  const catalog = JSON.parse(document.getElementById("catalog-data").textContent);
  const panel = document.getElementById("estimate");
  const body = document.getElementById("estimate-body");
  const url = form.dataset.estimateUrl;
  const TIERS = ["leaf", "spine", "core"];
  // Checked only on submit: the estimate leaves them alone.
  const SUBMIT_ONLY = new Set(["name", "description"]);
  let timer = null;
  let sequence = 0;
  let controller = null;
  // Errors show on fields the user has touched (all of them after a submit the server refused).
  const touched = new Set();
  const refused = form.querySelector(".field.has-error, [data-error-for='__all__']:not([hidden])") !== null;

  function field(name) { return form.elements.namedItem(name); }

  field("server").addEventListener("change", function () {
    const info = catalog.servers[this.value];
    if (info && info.default_nic) field("nic").value = String(info.default_nic);
  });

  function switchOf(tier) {
    const value = field(tier + "_switch").value;
    if (value) return value;
    if (tier === "spine") return switchOf("leaf");
    if (tier === "core") return switchOf("spine");
    return "";
  }

  function fillBreakouts(tier) {
    const select = field(tier + "_breakout");
    const modes = catalog.switches[switchOf(tier)] || [];
    const current = select.value;
    while (select.options.length > 1) select.remove(1);
    for (const [mode, label] of modes) select.add(new Option(label, mode));
    select.value = modes.some((m) => m[0] === current) ? current : "";
  }

  TIERS.forEach((tier) => field(tier + "_switch").addEventListener("change", () => TIERS.forEach(fillBreakouts)));
  TIERS.forEach(fillBreakouts);

  function showErrors(errors) {
    form.querySelectorAll("[data-error-for]").forEach((el) => {
      const name = el.dataset.errorFor;
      if (SUBMIT_ONLY.has(name)) return;
      const input = field(name);
      const blank = input && "value" in input && String(input.value).trim() === "";
      if (!refused && name !== "__all__" && !touched.has(name) && blank) return;
      const messages = errors[name] || [];
      el.textContent = messages.join(" ");
      if (name === "__all__") el.hidden = messages.length === 0;
      const box = el.closest(".field");
      if (box) box.classList.toggle("has-error", messages.length > 0);
    });
  }

  async function check() {
    const mine = ++sequence;
    if (controller) controller.abort();
    controller = new AbortController();
    panel.classList.add("checking");
    try {
      const response = await fetch(url, {
        method: "POST", body: new FormData(form), credentials: "same-origin", signal: controller.signal,
        headers: { Accept: "application/json" },
      });
      if (!response.ok) throw new Error(String(response.status));
      const result = await response.json();
      if (mine !== sequence) return;
      body.innerHTML = result.panel_html;
      showErrors(result.errors || {});
      form.dataset.feasible = result.feasible ? "true" : "false";
      form.dataset.checked = String(mine);
    } catch (error) {
      if (error.name === "AbortError") return;
      body.textContent = gettext("The live check is unavailable; the inputs are checked when you generate.");
    } finally {
      if (mine === sequence) panel.classList.remove("checking");
    }
  }

  function schedule(event) {
    if (event && event.target && event.target.name) touched.add(event.target.name);
    if (event && event.target && SUBMIT_ONLY.has(event.target.name)) return;
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  form.addEventListener("submit", () => {
    clearTimeout(timer);
    if (controller) controller.abort();
    const button = document.getElementById("generate");
    if (button) { button.disabled = true; button.textContent = gettext("Generating…"); }
  });
  check();
})();
