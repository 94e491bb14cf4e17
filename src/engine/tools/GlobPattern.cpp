#include "tools/GlobPattern.h"

using namespace Qt::StringLiterals;

namespace wl::GlobPattern {

QRegularExpression toRegularExpression(const QString &pattern, bool caseInsensitive)
{
    QString glob = pattern;
    while (glob.startsWith(u"./"_s))
        glob.remove(0, 2);

    QString regex;
    int braceDepth = 0;
    const qsizetype size = glob.size();
    for (qsizetype i = 0; i < size; ++i) {
        const QChar c = glob[i];
        if (c == u'*') {
            qsizetype stars = 1;
            while (i + 1 < size && glob[i + 1] == u'*') {
                ++stars;
                ++i;
            }
            if (stars == 1) {
                regex += u"[^/]*"_s;
            } else {
                const bool atSegmentStart = (i + 1 - stars == 0) || glob[i - stars] == u'/';
                if (atSegmentStart && i + 1 < size && glob[i + 1] == u'/') {
                    regex += u"(?:.*/)?"_s;
                    ++i;  // the slash is part of the optional folder prefix
                } else {
                    regex += u".*"_s;
                }
            }
        } else if (c == u'?') {
            regex += u"[^/]"_s;
        } else if (c == u'[') {
            qsizetype j = i + 1;
            if (j < size && (glob[j] == u'!' || glob[j] == u'^'))
                ++j;
            if (j < size && glob[j] == u']')
                ++j;
            while (j < size && glob[j] != u']')
                ++j;
            if (j >= size) {
                regex += u"\\["_s;  // no closing bracket: a literal one
                continue;
            }
            QString set = glob.mid(i + 1, j - i - 1);
            QString cls = u"["_s;
            if (set.startsWith(u'!') || set.startsWith(u'^')) {
                cls += u'^';
                set.remove(0, 1);
            }
            for (const QChar member : std::as_const(set)) {
                if (member == u'\\' || member == u'[' || member == u']' || member == u'^')
                    cls += u'\\';
                cls += member;
            }
            cls += u']';
            regex += cls;
            i = j;
        } else if (c == u'{') {
            ++braceDepth;
            regex += u"(?:"_s;
        } else if (c == u'}' && braceDepth > 0) {
            --braceDepth;
            regex += u')';
        } else if (c == u',' && braceDepth > 0) {
            regex += u'|';
        } else {
            regex += QRegularExpression::escape(QString(c));
        }
    }
    while (braceDepth-- > 0)
        regex += u')';

    QRegularExpression::PatternOptions options = QRegularExpression::DontCaptureOption;
    if (caseInsensitive)
        options |= QRegularExpression::CaseInsensitiveOption;
    return QRegularExpression(QRegularExpression::anchoredPattern(regex), options);
}

} // namespace wl::GlobPattern
