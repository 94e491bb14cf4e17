#include "ImportTitle.h"

#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Leading blocks <tag ...>...</tag> that agents wrap around context they inject. Returns the
// rest, or an empty view when a block is never closed (the whole message is a wrapper).
QStringView skipTaggedBlocks(QStringView text)
{
    static const QRegularExpression openTag(u"^<([A-Za-z][A-Za-z0-9_:-]*)(\\s[^>]*)?>"_s);
    text = text.trimmed();
    while (text.startsWith(u'<')) {
        const QRegularExpressionMatch open = openTag.matchView(text);
        if (!open.hasMatch())
            break;
        const QString close = u"</"_s + open.captured(1) + u'>';
        const qsizetype end = text.indexOf(close);
        if (end < 0)
            return {};
        text = text.sliced(end + close.size()).trimmed();
    }
    return text;
}

bool isBoilerplate(QStringView text)
{
    static constexpr QStringView prefixes[] = {
        u"# AGENTS.md instructions", u"Caveat: The messages below were generated", u"[Request interrupted by user",
    };
    for (QStringView prefix : prefixes) {
        if (text.startsWith(prefix))
            return true;
    }
    return false;
}

} // namespace

QString ImportTitle::fromUserText(const QString &full)
{
    QStringView text = full;
    // Codex Desktop puts attachments first and the request after this heading.
    static constexpr QStringView requestHeading = u"## My request for Codex:";
    if (const qsizetype at = text.indexOf(requestHeading); at >= 0)
        text = text.sliced(at + requestHeading.size());
    text = skipTaggedBlocks(text);
    if (text.isEmpty() || isBoilerplate(text))
        return {};
    for (QStringView line : text.split(u'\n')) {
        line = line.trimmed();
        while (line.startsWith(u'#'))
            line = line.sliced(1);
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        return line.size() > maxLength ? line.first(maxLength - 1).toString() + QChar(0x2026) : line.toString();
    }
    return {};
}

} // namespace wl
