// The Mini App: no framework, no build step. Telegram puts initData and the theme in the
// URL's fragment (and in Telegram.WebApp when its script is loaded); every API request sends
// initData for the server to check; an open sheet is polled with its ETag.
(function () {
  "use strict";
  var hash = new URLSearchParams(location.hash.slice(1));
  var tg = window.Telegram && window.Telegram.WebApp;
  var initData = (tg && tg.initData) || hash.get("tgWebAppData") || "";
  try {
    if (initData) sessionStorage.setItem("initData", initData);
    else initData = sessionStorage.getItem("initData") || "";
  } catch (e) { /* storage may be off: the fragment is enough */ }
  var lang = "ru";
  try {
    var who = JSON.parse(new URLSearchParams(initData).get("user") || "{}");
    lang = (who.language_code || navigator.language || "ru").slice(0, 2);
  } catch (e) { /* only picks the words of a refusal */ }
  document.documentElement.lang = lang;

  var root = document.getElementById("app");
  var toastBox = document.getElementById("toast");
  var state = { ui: {}, id: null, etag: null, version: null, poll: 3, timer: null, busy: false };

  function applyTheme(p) {
    if (!p || typeof p !== "object") return;
    var style = document.documentElement.style, any = false;
    Object.keys(p).forEach(function (k) {
      if (/^[a-z_]+$/.test(k) && /^#[0-9a-fA-F]{3,8}$/.test(p[k])) {
        style.setProperty("--tg-theme-" + k.replace(/_/g, "-"), p[k]);
        any = true;
      }
    });
    document.documentElement.classList.toggle("themed", any);
  }
  var theme = tg && tg.themeParams;
  if (!theme) { try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; } }
  applyTheme(theme);

  function postEvent(type, data) {
    var body = JSON.stringify(data || {});
    try {
      if (window.TelegramWebviewProxy) window.TelegramWebviewProxy.postEvent(type, body);
      else if (window.parent !== window)
        window.parent.postMessage(JSON.stringify({ eventType: type, eventData: data || {} }), "*");
    } catch (e) { /* outside Telegram */ }
  }
  function onEvent(name, data) {
    if (name === "theme_changed" && data) applyTheme(data.theme_params);
  }
  window.Telegram = window.Telegram || {};
  if (!window.Telegram.WebView) window.Telegram.WebView = { receiveEvent: onEvent };
  window.TelegramGameProxy = window.TelegramGameProxy || { receiveEvent: onEvent };
  window.addEventListener("message", function (ev) {
    try { var m = JSON.parse(ev.data); onEvent(m.eventType, m.eventData); } catch (e) { /* not ours */ }
  });

  function api(path, opts) {
    opts = opts || {};
    var headers = { "Authorization": "tma " + initData, "X-Lang": lang };
    if (opts.etag) headers["If-None-Match"] = opts.etag;
    if (opts.body) headers["Content-Type"] = "application/json";
    return fetch(path, {
      method: opts.body ? "POST" : "GET", headers: headers, cache: "no-store",
      body: opts.body ? JSON.stringify(opts.body) : undefined
    });
  }
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }
  function rendered(kind) {
    document.body.dataset.view = kind;
    if (!document.body.dataset["first" + kind])  // the figures of the note: ms since navigation
      document.body.dataset["first" + kind] = String(Math.round(performance.now()));
    if (!document.body.dataset.firstRender)
      document.body.dataset.firstRender = String(Math.round(performance.now()));
  }
  function toast(text) {
    toastBox.textContent = text;
    toastBox.hidden = false;
    clearTimeout(toast.t);
    toast.t = setTimeout(function () { toastBox.hidden = true; }, 2500);
  }
  function refused(text, title) {
    stopPoll();
    root.replaceChildren();
    var box = el("div", "refused");
    box.id = "refused";
    title = title || state.ui.refused_title || "";
    document.title = title;  // not the page's Russian placeholder, in the user's language
    box.appendChild(el("h1", null, "🔒 " + title));
    box.appendChild(el("p", null, text));
    root.appendChild(box);
    rendered("refused");
  }
  // The server's words in the user's language; never a bare status code or a body that is
  // not ours (a proxy's error page): the page's own «something went wrong» instead.
  function failed(res) {
    var fallback = state.ui.error || state.ui.failed || "…";
    return res.json().then(function (b) { failed.title = b.title; return (b && b.error) || fallback; },
                           function () { return fallback; });
  }
  function deny(res) { return failed(res).then(function (t) { refused(t, failed.title); }); }

  // ``opening``: the page's first view, where a lone character opens at once; «← All
  // characters» shows the list even then (it used to reopen the same sheet: a dead button).
  function showList(opening) {
    stopPoll();
    state.id = null;
    return api("api/characters").then(function (res) {
      if (res.status === 401) return deny(res);
      return res.json().then(function (body) {
        state.ui = body.ui; state.poll = body.poll || 3;
        document.title = body.ui.title;
        root.replaceChildren();
        root.appendChild(el("h1", null, body.ui.title));
        var list = el("div", "list");
        body.characters.forEach(function (c) {
          var a = el("a");
          a.href = "#";
          a.dataset.character = c.id;
          a.appendChild(el("b", null, c.name));
          var marks = [c.game, c.system];
          if (c.own) marks.push(body.ui.own);
          if (c.npc) marks.push(body.ui.npc);
          if (c.archived) marks.push("🗄 " + body.ui.archived);  // read only, as its sheet says
          a.appendChild(el("small", null, marks.join(" · ")));
          a.addEventListener("click", function (ev) { ev.preventDefault(); showSheet(c.id); });
          list.appendChild(a);
        });
        if (!body.characters.length) list.appendChild(el("p", "muted", body.ui.empty));
        root.appendChild(list);
        rendered("list");
        if (opening === true && body.characters.length === 1) return showSheet(body.characters[0].id);
      });
    }, function () { toast(state.ui.failed || "…"); });
  }

  function draw(body) {
    state.etag = body.etag; state.version = body.version;
    var y = window.scrollY;
    root.innerHTML = body.html;  // built on the server, every user string escaped there
    var back = el("button", "nav", "← " + (state.ui.back || ""));
    back.id = "back";
    back.addEventListener("click", function () { showList(false); });
    root.insertBefore(back, root.firstChild);
    var name = root.querySelector("h1");
    if (name) document.title = name.textContent;  // the page's title is the character's name
    root.dataset.version = body.version;
    window.scrollTo(0, y);
    rendered("sheet");
  }
  function showSheet(id) {
    state.id = id; state.etag = null;
    return refresh().then(startPoll);
  }
  function refresh() {
    if (state.id == null) return Promise.resolve();
    var id = state.id;
    return api("api/sheet/" + id, { etag: state.etag }).then(function (res) {
      if (id !== state.id || res.status === 304) return;
      if (res.status === 401) return deny(res);
      if (!res.ok) return failed(res).then(function (t) { toast(t); showList(); });
      return res.json().then(draw);
    }, function () { toast(state.ui.failed || "…"); });
  }
  function startPoll() {
    stopPoll();
    state.timer = setInterval(function () {
      if (!document.hidden && !state.busy) refresh();
    }, state.poll * 1000);
  }
  function stopPoll() { if (state.timer) clearInterval(state.timer); state.timer = null; }

  root.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button.act");
    if (!button || state.busy || state.id == null) return;
    var op;
    try { op = JSON.parse(button.dataset.op); } catch (e) { return; }
    state.busy = true;
    button.disabled = true;
    api("api/sheet/" + state.id + "/act", { body: { version: state.version, op: op } })
      .then(function (res) {
        if (res.status === 401) return deny(res);
        if (!res.ok) return failed(res).then(function (t) { toast(t); state.etag = null; return refresh(); });
        return res.json().then(function (body) { draw(body); toast(body.summary); });
      }, function () { toast(state.ui.failed || "…"); })
      .then(function () { state.busy = false; button.disabled = false; });
  });

  postEvent("web_app_ready");
  postEvent("web_app_expand");
  if (!initData) {
    api("api/characters").then(function (res) { return deny(res); });
  } else {
    showList(true);
  }
})();
