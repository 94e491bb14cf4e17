#pragma once

#include <QCoreApplication>
#include <QString>
#include <QUrl>

namespace wl {

// What to paste so an agent talks to the proxy instead of its provider, for a proxy whose base URL
// (token included) is `base`. The client keeps its own key: none of these names one.
class ProxySnippets
{
    Q_DECLARE_TR_FUNCTIONS(wl::ProxySnippets)
public:
    enum class Client { ClaudeCode, Codex, Sdks };

    static QString title(Client client);
    static QString text(Client client, const QUrl &base);

    // OpenAI clients append paths to a base that ends in /v1; Anthropic's append /v1 themselves.
    static QUrl openAiBase(const QUrl &base);
};

} // namespace wl
