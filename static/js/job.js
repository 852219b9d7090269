/* A job's progress page: polls GET /api/jobs/{id}/ every 500 ms while the job is active.
 * The bar's width is the job's percent; the stage is the API's stage_label (the reader's language). A succeeded
 * job turns into its design page; a failed or lost one shows why and the fields to change.
 */
(function () {
  "use strict";
  const card = document.getElementById("job");
  if (!card) return;
  const statusLabels = JSON.parse(document.getElementById("status-labels").textContent);
  const fieldLabels = JSON.parse(document.getElementById("field-labels").textContent);
  const progress = document.getElementById("job-progress");
  const bar = progress.querySelector(".bar");
  const el = (id) => document.getElementById(id);
  const POLL_MS = 500;
  const OPEN_DELAY_MS = 700;

  function render(job) {
    const percent = Math.max(0, Math.min(100, Number(job.percent) || 0));
    bar.style.width = percent + "%";
    progress.setAttribute("aria-valuenow", String(percent));
    el("job-percent").textContent = percent + " %";
    el("job-status").textContent = statusLabels[job.status] || job.status;
    el("job-status").className = "badge " + job.status;
    el("job-stage").textContent = job.stage_label || job.stage || "";
    card.dataset.status = job.status;
  }

  function showFailure(job) {
    el("job-failed").hidden = false;
    bar.classList.add("failed");
    el("job-error").textContent = job.error || "";
    const list = el("job-field-errors");
    list.replaceChildren();
    for (const [name, messages] of Object.entries(job.error_fields || {})) {
      for (const message of messages) {
        const item = document.createElement("li");
        const label = document.createElement("strong");
        label.textContent = fieldLabels[name] || name;
        item.append(label, ": " + message);
        list.append(item);
      }
    }
    const hint = el("job-hint");
    if (hint) hint.hidden = true;
  }

  function openDesign() {
    el("job-done").hidden = false;
    const hint = el("job-hint");
    if (hint) hint.hidden = true;
    setTimeout(() => window.location.assign(card.dataset.versionUrl), OPEN_DELAY_MS);
  }

  async function poll() {
    try {
      const response = await fetch(card.dataset.pollUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.ok) {
        const job = await response.json();
        render(job);
        if (job.status === "succeeded") { openDesign(); return; }
        if (job.status === "failed" || job.status === "lost") { showFailure(job); return; }
      }
    } catch (error) {
      // A dropped connection: try again on the next tick.
    }
    setTimeout(poll, POLL_MS);
  }

  const status = card.dataset.status;
  if (status === "succeeded") openDesign();
  else if (status !== "failed" && status !== "lost") setTimeout(poll, POLL_MS);
})();
