#include "ProviderRequest.h"

#include <QHostAddress>

using namespace Qt::StringLiterals;

namespace wl::ProviderRequest {

QNetworkRequest make(const QUrl &url)
{
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::SameOriginRedirectPolicy);
    return request;
}

bool mayCarryKey(const QUrl &url)
{
    const QString scheme = url.scheme().toLower();
    if (scheme == u"https")
        return true;
    if (scheme != u"http")
        return false;
    // The host as written: a name other than "localhost" could resolve anywhere.
    const QString host = url.host().toLower();
    if (host == u"localhost" || host.endsWith(u".localhost"))
        return true;
    const QHostAddress address(host);
    return !address.isNull() && address.isLoopback();
}

} // namespace wl::ProviderRequest
