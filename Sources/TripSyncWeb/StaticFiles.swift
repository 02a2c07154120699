/// The pages' stylesheet and script, inside the binary (nothing is fetched from the network).
enum StaticFiles {
    static func response(_ name: String) -> WebResponse {
        switch name {
        case "app.css": return WebResponse(status: 200, headers: [("Content-Type", "text/css; charset=utf-8")], body: Array(css.utf8))
        case "app.js": return WebResponse(status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")], body: Array(script.utf8))
        default: return WebResponse.text(404, "no such file")
        }
    }

    /// Readable from 320 px to a wide screen; a visible focus ring; no web fonts.
    static let css = """
        :root { --ink: #1d2430; --muted: #5a6472; --line: #d5dae1; --accent: #0b5cad; --bg: #f7f8fa; --warn: #8a3b00; --bad: #a4001d; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); overflow-wrap: anywhere; }
        .skip { position: absolute; left: -9999px; }
        .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 2; }
        header.site { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; padding: 10px 16px; background: #fff; border-bottom: 1px solid var(--line); }
        header.site .home { font-weight: 700; color: var(--ink); text-decoration: none; }
        header.site nav { display: flex; flex-wrap: wrap; gap: 4px 12px; }
        main { max-width: 860px; margin: 0 auto; padding: 8px 16px 48px; }
        h1 { font-size: 1.6rem; margin: 12px 0; }
        h2 { font-size: 1.25rem; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        h3 { font-size: 1.05rem; margin: 16px 0 6px; }
        a { color: var(--accent); }
        a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid #ffbf47; outline-offset: 2px; }
        ol.items, ul.trips, ul.deleted, ul.values, ul.devices, ul.members, ul.attachments { list-style: none; padding: 0; margin: 0; }
        li.item { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 6px 0; }
        li.item .when { display: inline-block; min-width: 7.5em; font-variant-numeric: tabular-nums; color: var(--muted); }
        li.item .title { font-weight: 600; }
        li.item { display: grid; grid-template-columns: 7.5em minmax(0, 1fr); gap: 0 10px; }
        li.item .title { font-size: 1rem; margin: 0; }
        section.day h2 { font-size: 1.05rem; border-bottom: 0; margin: 18px 0 6px; }
        .day .dow { color: var(--accent); margin-right: 6px; }
        .tag { font-size: 0.78rem; font-weight: 700; text-transform: uppercase; color: var(--muted); }
        .span, .remark, .cont-when, .leg .lbl, .leg .city { color: var(--muted); font-size: 0.92rem; }
        .route { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
        .note { white-space: pre-wrap; margin: 4px 0 0; }
        .place { margin: 4px 0 0; }
        ul.continuing { list-style: none; padding: 0; margin: 0 0 6px; }
        li.cont a { display: block; background: #fff; border: 1px dashed var(--line); border-radius: 6px; padding: 4px 10px; margin: 4px 0; }
        .conflicts { border-left: 4px solid var(--warn); padding-left: 10px; margin: 8px 0 0; }
        .conflicts ul { margin: 0; padding-left: 18px; }
        .c-head, .c-name { font-weight: 600; margin: 4px 0; }
        .zn, .shown-zone, .vz { display: none; }
        .place, .until, .meta { color: var(--muted); font-size: 0.92rem; }
        .flag { color: var(--warn); font-weight: 600; font-size: 0.92rem; }
        ul.trips li, ul.deleted li, ul.values li, ul.devices li, ul.members li { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 6px 0; }
        .conflict { border-left: 4px solid var(--warn); padding-left: 10px; margin: 12px 0; }
        .field { display: flex; flex-direction: column; margin: 8px 0; min-width: 0; }
        .field label { font-weight: 600; }
        .field.check { flex-direction: row; align-items: center; gap: 8px; }
        .hint { color: var(--muted); font-size: 0.85rem; }
        .row { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 0 12px; }
        input[type=text], select, textarea { font: inherit; padding: 8px; border: 1px solid #8a94a3; border-radius: 4px; background: #fff; width: 100%; max-width: 100%; }
        button, a.button { font: inherit; display: inline-block; padding: 8px 14px; border: 1px solid var(--accent); border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; margin: 4px 0; }
        form.inline { display: inline; }
        form.inline button { padding: 4px 10px; background: #fff; color: var(--accent); }
        form.item-form, section#sync form { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
        .error { background: #fdecee; border: 1px solid var(--bad); color: var(--bad); border-radius: 6px; padding: 4px 12px; margin: 8px 0; }
        .notice { background: #e8f4ea; border: 1px solid #2e7d32; border-radius: 6px; padding: 4px 12px; margin: 8px 0; }
        .empty { color: var(--muted); }
        .field-error { color: var(--bad); font-weight: 600; font-size: 0.92rem; }
        .field.invalid input, .field.invalid select, .field.invalid textarea { border: 2px solid var(--bad); }
        .error ul { margin: 4px 0; padding-left: 20px; }
        .error a { color: var(--bad); }
        .error:focus, .notice:focus { outline: 3px solid #ffbf47; outline-offset: 2px; }
        dl.detail { display: grid; grid-template-columns: minmax(5em, max-content) 1fr; gap: 4px 12px; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px; }
        dl.detail dt { font-weight: 600; }
        dl.detail dd { margin: 0; white-space: pre-wrap; }
        figure { margin: 0; }
        figure img { max-width: 100%; height: auto; border-radius: 4px; }
        code { overflow-wrap: anywhere; }
        @media (max-width: 480px) { li.item { display: block; } li.item .when { display: block; } main { padding: 4px 10px 40px; } h1 { font-size: 1.35rem; } }
        """

    /// Keeps a trip's page current: polls the trip's version every second and, when it changed,
    /// fetches the page again and swaps its live parts (itinerary, conflicts, deleted, status),
    /// leaving forms being typed into alone. Copy buttons copy an invite code. A notice or an
    /// error (`data-focus`) takes the focus when the page loads.
    static let script = """
        (function () {
          "use strict";
          var main = document.getElementById("main");
          // After an action the notice or the error takes the keyboard focus (and the eye): now,
          // and again once the page has loaded, since going to a #fragment moves the focus to
          // the page itself after the scripts ran.
          function focusSaid() {
            var said = document.querySelector("[data-focus]");
            if (said && document.activeElement !== said && (document.activeElement === document.body || !document.activeElement)) { said.focus(); }
          }
          focusSaid();
          window.addEventListener("load", function () { setTimeout(function () { requestAnimationFrame(focusSaid); }, 0); });
          document.addEventListener("click", function (event) {
            var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
            if (!button) return;
            var field = document.getElementById(button.getAttribute("data-copy"));
            if (!field) return;
            field.select();
            if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(function () { button.textContent = "Copied"; }); }
            else { document.execCommand("copy"); button.textContent = "Copied"; }
          });
          if (!main || !main.dataset.versionUrl) return;
          var url = main.dataset.versionUrl;
          var version = main.dataset.version;
          var busy = false;
          function refresh() {
            fetch(location.pathname, { credentials: "same-origin" }).then(function (response) {
              if (!response.ok) throw new Error("status " + response.status);
              return response.text();
            }).then(function (text) {
              var page = new DOMParser().parseFromString(text, "text/html");
              var fresh = page.getElementById("main");
              if (fresh) version = fresh.dataset.version;
              document.querySelectorAll("[data-live]").forEach(function (old) {
                var next = page.getElementById(old.id);
                if (!next) return;
                if (old.contains(document.activeElement) && document.activeElement !== document.body) return;
                old.replaceWith(document.importNode(next, true));
              });
            }).catch(function () {}).then(function () { busy = false; });
          }
          function poll() {
            if (busy || document.hidden) return;
            fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
              return response.ok ? response.text() : null;
            }).then(function (text) {
              if (text !== null && text !== version) { busy = true; version = text; refresh(); }
            }).catch(function () {});
          }
          setInterval(poll, 1000);
        })();
        """
}
