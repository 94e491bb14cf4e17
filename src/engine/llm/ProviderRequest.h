#pragma once

#include <QNetworkRequest>
#include <QUrl>

namespace wl {

// The rules every HTTP request to a provider follows, in one place:
//   - redirects only to the same origin (Qt's default would re-send a POST with its
//     Authorization and x-api-key headers to any host that answers 307 or 308);
//   - a key travels over plain http:// only to a loopback address (a local Ollama,
//     llama.cpp or the test server), never across a network in clear text.
namespace ProviderRequest {

QNetworkRequest make(const QUrl &url);
// True when a request that carries a key may go to `url`.
bool mayCarryKey(const QUrl &url);

} // namespace ProviderRequest

} // namespace wl
