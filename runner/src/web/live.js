// The pages of `xq-runner serve` keep themselves up to date: every 2 s (after the last
// answer, so never faster) the page asks for the JSON it is made of; when that changed,
// it fetches itself and puts the new <main> in place of the old (no reload: the server
// draws the charts and escapes every name, this script never builds markup). While the
// database or the server is away the page says so, and recovers when it is back.
(function () {
  "use strict";
  var api = document.body.getAttribute("data-api");
  if (!api) return;
  var last = null;
  // A page served while the database was away is its frame alone: drawn whole at the
  // first answer.
  var away = document.body.hasAttribute("data-down");
  var updates = 0;
  // Ages tick on every answer; they alone are no reason to draw the page again.
  function settled(key, value) {
    return /_s_ago$/.test(key) ? undefined : value;
  }
  function say(text, down) {
    var line = document.getElementById("live");
    if (!line) return;
    line.textContent = text;
    line.className = down ? "down" : "";
    var title = document.title.replace(/^database unreachable \u00b7 |^server unreachable \u00b7 /, "");
    document.title = down ? text.split(":")[0] + " \u00b7 " + title : title;
  }
  function swap(text) {
    var next = new DOMParser().parseFromString(text, "text/html");
    var main = next.querySelector("main");
    if (!main) return;
    document.querySelector("main").replaceWith(document.adoptNode(main));
    document.title = next.title;
    updates += 1;
    document.documentElement.setAttribute("data-updates", String(updates));
  }
  function poll() {
    fetch(api, { cache: "no-store" })
      .then(function (answer) {
        if (answer.status === 503) throw new Error("database unreachable");
        if (!answer.ok) throw new Error("error " + answer.status);
        return answer.text();
      })
      .then(function (text) {
        var now = JSON.stringify(JSON.parse(text, settled));
        var changed = last !== null && now !== last;
        var again = away;
        last = now;
        if (!changed && !again) return null;
        return fetch(location.href, { cache: "no-store" }).then(function (page) {
          if (page.status === 503) throw new Error("database unreachable");
          if (!page.ok) throw new Error("error " + page.status);
          return page.text().then(swap);
        });
      })
      .then(function () {
        away = false;
        say("live: updated " + new Date().toLocaleTimeString(), false);
      })
      .catch(function (e) {
        away = true;
        var why = e instanceof TypeError ? "server unreachable" : e.message;
        say(why + ": trying again every 2 s", true);
      })
      .then(function () {
        setTimeout(poll, 2000);
      });
  }
  setTimeout(poll, 2000);
})();
