// The static studio page: the workbench's page (index.html, app.js,
// editor.js) with no server. turnspec-wasm's `Studio` answers every API
// call in the page (app.js calls `window.turnspecBackend.call` instead of
// fetch); the files are the game specs shipped with the page (files.json)
// and what the designer saved, kept in the browser's storage.
// scripts/studio-page.sh puts this page together.
"use strict";
window.turnspecBackendReady = (async () => {
  const KEY = "turnspec-studio-files";
  const { default: init, Studio } = await import("./turnspec_wasm.js");
  await init();
  const shipped = await (await fetch("files.json")).json();
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { saved = {}; }
  const studio = new Studio({ ...shipped, ...saved });
  // Keeps the files a save wrote (specs, scenarios, stop profiles).
  const keep = () => {
    const mine = {};
    for (const [path, text] of Object.entries(studio.files())) {
      if (shipped[path] !== text) mine[path] = text;
    }
    try { localStorage.setItem(KEY, JSON.stringify(mine)); } catch { /* storage full or off: kept for this visit */ }
  };
  window.turnspecBackend = {
    call(method, path, body) {
      const answer = studio.call(method, path, body ?? undefined);
      if (method === "POST" && /\/save$/.test(path)) keep();
      return answer;
    },
    files: () => studio.files(),
  };
})();
