#include "proxy/ProxySnippets.h"

using namespace Qt::StringLiterals;

namespace wl {

QString ProxySnippets::title(Client client)
{
    switch (client) {
    case Client::ClaudeCode: return tr("Claude Code");
    case Client::Codex: return tr("Codex");
    case Client::Sdks: return tr("SDKs");
    }
    return {};
}

QUrl ProxySnippets::openAiBase(const QUrl &base)
{
    QUrl url = base;
    QString path = url.path();
    if (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path + u"/v1"_s);
    return url;
}

QString ProxySnippets::text(Client client, const QUrl &base)
{
    const QString anthropic = base.toString();
    const QString openAi = openAiBase(base).toString();
    switch (client) {
    case Client::ClaudeCode:
        return tr("# Claude Code keeps its own key or login.\n")
               + u"export ANTHROPIC_BASE_URL=%1\nclaude\n"_s.arg(anthropic);
    case Client::Codex:
        return tr("# In ~/.codex/config.toml; then run: %1\n").arg(u"codex -c model_provider=waterline"_s)
               + u"[model_providers.waterline]\n"
                 "name = \"Waterline proxy\"\n"
                 "base_url = \"%1\"\n"
                 "wire_api = \"responses\"\n"
                 "env_key = \"OPENAI_API_KEY\"\n"_s.arg(openAi);
    case Client::Sdks:
        return tr("# Read by the OpenAI and Anthropic SDKs.\n")
               + u"export OPENAI_BASE_URL=%1\nexport ANTHROPIC_BASE_URL=%2\n"_s.arg(openAi, anthropic);
    }
    return {};
}

} // namespace wl
