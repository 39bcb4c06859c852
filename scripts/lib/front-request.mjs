// What the public listener (data-plane.mjs) does to every request before anything answers it, and next-server.mjs to a
// request that did not come through the data plane:
//  - the client's socket address reaches the app in a header no client can forge (x-platform-client-ip), which the
//    IP allow-list of API keys needs (X-Forwarded-For is trusted only from TRUSTED_PROXIES);
//  - a product host's request ({slug}.GATEWAY_HOST_SUFFIX, {slug}.APP_HOST_SUFFIX) is pointed at its path here;
//  - Host, X-Forwarded-Host and -Proto are replaced by the origin this request is answered for: the client's own
//    Host when it names this server, else this server's address; never a value a client made up.
import { applyOrigin, ownHostnames, requestOrigin } from "./request-origin.mjs";
import { hostSuffix, isRoutedHost, routeByHost } from "./host-routing.mjs";

export function frontRequestPreparer({ port, hostname, env = process.env }) {
  const fixedOrigin = env.PUBLIC_BASE_URL || env.NEXTAUTH_URL;
  const ownNames = ownHostnames();
  const gatewaySuffix = hostSuffix(env.GATEWAY_HOST_SUFFIX);
  const appSuffix = hostSuffix(env.APP_HOST_SUFFIX);
  const routed = (name) => isRoutedHost(name, [gatewaySuffix, appSuffix]);
  // The headers each Host value leads to, worked out once (a bounded map: the Host header is the client's to write).
  const originHeaders = new Map();
  function applyRequestOrigin(headers) {
    const key = headers.host ?? "";
    let values = originHeaders.get(key);
    if (!values) {
      values = {};
      applyOrigin(
        values,
        requestOrigin({ hostHeader: headers.host, port, listenHost: hostname, publicBaseUrl: fixedOrigin, names: ownNames, routed }),
      );
      if (originHeaders.size >= 256) originHeaders.clear();
      originHeaders.set(key, values);
    }
    Object.assign(headers, values);
  }
  return (req) => {
    req.headers["x-platform-client-ip"] = req.socket.remoteAddress ?? "";
    // Before the origin is applied: it reads the client's Host.
    const url = routeByHost({ hostHeader: req.headers.host, url: req.url ?? "/", gatewaySuffix, appSuffix });
    if (url) req.url = url;
    applyRequestOrigin(req.headers);
  };
}
