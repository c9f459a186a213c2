/* Tonk Ledger service worker (served as /sw.js, scope /): the app shell works without a
   connection.
   - /static/ files: from the cache first (whatever the Vary of the kept response), fetched
     and kept on a miss.
   - The table screen (/s/<id>) and every step of entering a hand (/s/<id>/record…): from the
     network; without a connection (or with the server unreachable: 502, 503, 504), the copy
     kept last, which the page marks as the last known state. Any step of an outcome
     (?kind=…&step=…&…) falls back to that outcome's whole entry on one page
     (?kind=…&whole=1), which offline-queue.js fills in from the step's address.
   - Everything else, and every POST, goes to the network untouched: saving a hand offline is
     done by static/offline-queue.js, which keeps it in IndexedDB until it can be sent. */
"use strict";

var PAGES = "tonk-pages-v2";
var STATIC = "tonk-static-v2";
var KEEP = [PAGES, STATIC];

/* For an address with no copy: the offline page a page of the app wrote into PAGES in its own
   language (offline-queue.js, from the words of ledger/web/js_words.py), else this English one. */
var OFFLINE_KEY = "/offline-page";
var OFFLINE_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Tonk Ledger</title>' +
  '<link rel="stylesheet" href="/static/app.css"></head><body><main id="main"><section class="panel">' +
  "<h1>You are offline</h1><p>This page was not kept on this phone. Hands you save on a table you have " +
  "opened are kept on the phone and sent when the connection returns.</p>" +
  '<p><a class="btn btn-block" href="/">Your nights</a></p></section></main></body></html>';

self.addEventListener("install", function () { self.skipWaiting(); });

/* A page this worker does not control asks to be taken ("claim", from offline-queue.js): a page
   whose address was fetched while the worker was still starting (clients.claim() at activation
   passes over a page still loading), or one reloaded past the worker (a hard reload). */
self.addEventListener("message", function (event) {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return KEEP.indexOf(n) < 0; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

/* The cache key of the kept copy that stands in for a page, or null. */
function pageKey(url) {
  if (/^\/s\/[\w-]+$/.test(url.pathname)) return url.origin + url.pathname;
  if (!/^\/s\/[\w-]+\/record$/.test(url.pathname)) return null;
  var kind = url.searchParams.get("kind");
  if (kind && /^\w+$/.test(kind)) return url.origin + url.pathname + "?kind=" + kind + "&whole=1";
  return url.searchParams.has("step") ? null : url.origin + url.pathname; // the outcome chooser
}

function unreachable(response) {
  return response.status >= 502 && response.status <= 504;
}

/* The copies are made by the page (offline-queue.js asks for them with X-Offline-Copy, which
   shows no one-time message and leaves the session cookie alone), never from a navigation. */
function fromNetwork(request) {
  return fetch(request).then(function (response) {
    if (unreachable(response)) throw new Error("unreachable");
    return response;
  });
}

function pause(ms) {
  return new Promise(function (resolve) { setTimeout(resolve, ms); });
}

/* While the phone has a connection, a failed fetch (a busy server dropping a kept-alive
   socket, a moment's 503) is tried again, twice, after a short pause, before the phone falls
   back to the copy: the live page carries the message of what was just saved and the hand
   itself, which the copy does not. Without a connection the copy comes at once. */
var RETRY_PAUSES = [250, 1000];

function fromNetworkRetrying(request, attempt) {
  return fromNetwork(request).catch(function (error) {
    if (attempt >= RETRY_PAUSES.length || self.navigator.onLine === false) throw error;
    return pause(RETRY_PAUSES[attempt]).then(function () { return fromNetworkRetrying(request, attempt + 1); });
  });
}

function offlinePage(cache) {
  return cache.match(self.location.origin + OFFLINE_KEY).then(function (written) {
    return written ? written.text() : OFFLINE_PAGE;
  }).then(function (html) {
    return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function fromNetworkOrCopy(request, key) {
  return fromNetworkRetrying(request, 0).catch(function () {
    return caches.open(PAGES).then(function (cache) {
      return (key ? cache.match(key) : Promise.resolve(undefined)).then(function (kept) {
        return kept || offlinePage(cache);
      });
    });
  });
}

/* A /static/ address names one version of the file (?v=<hash>): a kept copy answers whatever
   headers the asking page sends. The server's responses say "Vary: Accept-Language, Cookie,
   Accept-Encoding" (its pages differ by language and session), and a match that heeded it
   missed here, so a page opened offline came without its scripts and styles. */
function staticFirst(request) {
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (hit) {
      return hit || fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(fromNetworkOrCopy(request, pageKey(url)));
  }
});
