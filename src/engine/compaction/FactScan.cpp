#include "FactScan.h"

#include <QChar>
#include <QRegularExpression>
#include <QStringView>

#include <bit>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace Qt::StringLiterals;

namespace wl::FactScan {

namespace {

// Whether `d[at..]` starts with `literal`, character for character.
inline bool hasAt(const char16_t *d, qsizetype n, qsizetype at, std::u16string_view literal)
{
    if (n - at < qsizetype(literal.size()))
        return false;
    for (size_t k = 0; k < literal.size(); ++k) {
        if (d[at + qsizetype(k)] != literal[k])
            return false;
    }
    return true;
}

// The same, ASCII letters of `lowerLiteral` matching either case. (PCRE's caseless matching also
// lets U+017F match "s" and U+212A match "k": callers keep those letters out of their literals.)
inline bool hasFoldedAt(const char16_t *d, qsizetype n, qsizetype at, std::u16string_view lowerLiteral)
{
    if (n - at < qsizetype(lowerLiteral.size()))
        return false;
    for (size_t k = 0; k < lowerLiteral.size(); ++k) {
        const char16_t want = lowerLiteral[k];
        const char16_t c = d[at + qsizetype(k)];
        if (want >= u'a' && want <= u'z' ? (c | 0x20) != want : c != want)
            return false;
    }
    return true;
}

bool isAsciiDigit(char16_t c)
{
    return c >= u'0' && c <= u'9';
}

// ---------------------------------------------------------------------------------------------
// Failures. Every alternative of the expression starts with a literal, so a match can only start
// where one of those literals (or, for "3 failed", a digit run followed by " f" or " e") is.

// Whether a failure match can start at d[at]; `*resume` gets where the search goes on if not.
// The second character is compared first: most start characters begin ordinary words.
Q_ALWAYS_INLINE bool failureMayStartAt(const char16_t *d, qsizetype n, qsizetype at, qsizetype *resume)
{
    *resume = at + 1;
    if (n - at < 5) // the shortest match is "ERROR"
        return false;
    const char16_t c = d[at];
    const char16_t next = d[at + 1];
    // "exit code 2", "Exited with status 1": caseless from the first letter on.
    auto exitAt = [&] { return (next | 0x20) == u'x' && hasFoldedAt(d, n, at, u"exit"); };
    switch (c) {
    case u'T':
        return next == u'r' && hasAt(d, n, at, u"Traceback (most recent call last)");
    case u'E':
        if (next == u'r')
            return hasAt(d, n, at, u"Error:") || (hasAt(d, n, at, u"Error ") && at + 6 < n && isAsciiDigit(d[at + 6]));
        return (next == u'R' && hasAt(d, n, at, u"ERROR")) || exitAt();
    case u'e':
        if (next == u'r')
            return hasAt(d, n, at, u"error") && at + 5 < n && (d[at + 5] == u':' || d[at + 5] == u'[');
        return exitAt();
    case u'F':
        return next == u'A' && hasAt(d, n, at, u"FAILED");
    case u'f':
        return next == u'a' && hasAt(d, n, at, u"fatal:");
    case u'p':
        return next == u'a' && hasAt(d, n, at, u"panic:");
    case u'"':
        return next == u'e' && hasAt(d, n, at, u"\"exit_code\"");
    case u'r':
        return next == u'e' && hasAt(d, n, at, u"returned non-zero exit status");
    case u'c':
        return next == u'o' && hasAt(d, n, at, u"command not found");
    case u'N':
        return next == u'o' && hasAt(d, n, at, u"No such file or directory");
    case u'S':
        return next == u'e' && hasAt(d, n, at, u"Segmentation fault");
    default:
        break;
    }
    if (c < u'1' || c > u'9')
        return false;
    // "[1-9]\d* (failed|errors?)": every start inside one run of digits reaches the same end of
    // the run, so if the first cannot match, none can: the search goes on after the run.
    qsizetype end = at + 1;
    while (end < n && isAsciiDigit(d[end]))
        ++end;
    *resume = end;
    return end + 1 < n && d[end] == u' ' && (d[end + 1] == u'f' || d[end + 1] == u'e');
}

// No lone surrogate: PCRE may skip its own check of the subject.
bool isWellFormed(QStringView text)
{
    const char16_t *d = text.utf16();
    const qsizetype size = text.size();
    qsizetype i = 0;
#if defined(__SSE2__)
    // Most texts hold no surrogate at all: look for one eight characters at a time.
    const __m128i mask = _mm_set1_epi16(short(0xF800));
    const __m128i surrogate = _mm_set1_epi16(short(0xD800));
    for (; i + 8 <= size; i += 8) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(d + i));
        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(c, mask), surrogate)) != 0)
            break;
    }
#endif
    for (; i < size; ++i) {
        const char16_t c = d[i];
        if (!QChar::isSurrogate(c))
            continue;
        if (!QChar::isHighSurrogate(c) || i + 1 >= size || !QChar::isLowSurrogate(d[i + 1]))
            return false;
        ++i;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Choices

// U+017F (long s) is caselessly equal to "s" for PCRE.
bool isFoldedS(char16_t c)
{
    return (c | 0x20) == u's' || c == u'\u017F';
}

} // namespace

const QRegularExpression &failureExpression()
{
    // Each alternative starts with a literal (no leading \b, no [A-Z]* prefix): about twice as fast.
    static const QRegularExpression failure(
        uR"re(Traceback \(most recent call last\)|Error:|Error \d|error(?:\[\w+\])?:|ERROR\b|FAILED\b|fatal:|panic:|)re"
        uR"re([1-9]\d* (?:failed|errors?)\b|(?i:exit(?:ed with)? (?:code|status)[:= ]*[1-9])|"exit_code"\s*:\s*[1-9]|)re"
        uR"re(returned non-zero exit status|command not found|No such file or directory|Segmentation fault)re"_s);
    return failure;
}

const QRegularExpression &choiceExpression()
{
    static const QRegularExpression choice(
        uR"re((?i:\b(?:I['’]ll use|I will use|we['’]ll use|we will use|let['’]s use|I['’]ll go with|let['’]s go with|decided|)re"
        uR"re(decide to|instead of|going with|chose|opted|rather than|switch(?:ing)? to|we should|)re"
        uR"re((?:I|we) need to (?:use|switch|rewrite|replace|import|add|move|keep)|)re"
        uR"re(I['’]ll (?:add|create|place|write|rewrite|implement|replace|keep|put|test))\b)|决定|改用|采用|选择了)re"_s);
    return choice;
}

const QRegularExpression &constraintExpression()
{
    static const QRegularExpression constraint(
        uR"re((?i:\b(?:must(?:n['’]t)?|never|always|do not|don['’]t(?! worry| know| mind)|make sure)\b)|不要|必须|禁止|务必|千万别)re"_s);
    return constraint;
}

const QRegularExpression &intentionExpression()
{
    static const QRegularExpression intention(
        uR"re((?i:\b(?:next,? (?:I|we)(?:['’]ll| will)|now (?:let me|I['’]ll|I will|we['’]ll)|then I['’]ll|I['’]ll now|)re"
        uR"re(let me (?!know\b)))|接下来|下一步|然后我)re"_s);
    return intention;
}

const QRegularExpression &planHeaderExpression()
{
    static const QRegularExpression planHeader(uR"re((?i:^(?:\*\*)?(?:plan|next steps?|remaining|to ?do)\b.*:\**$))re"_s);
    return planHeader;
}

const QRegularExpression &todoExpression()
{
    static const QRegularExpression todo(uR"re(^(?:[-*] \[ \]|\d+[.)]\s|(?i:todo\b|next\b|then\b))|(?i:next steps?))re"_s);
    return todo;
}

const QRegularExpression &fieldExpression()
{
    static const QRegularExpression field(
        uR"re("(path|file_path|filePath|filename|file|target_file|notebook_path|command|cmd)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|\[))re"_s);
    return field;
}

const QRegularExpression &patchFileExpression()
{
    static const QRegularExpression patchFile(uR"re(\*\*\* (?:Update|Add|Delete) File: ([^\n\\"]+)|\+\+\+ b/([^\n\\"\t]+))re"_s);
    return patchFile;
}

void forEachField(QStringView text, const std::function<void(const Field &)> &found)
{
    if (!isWellFormed(text)) {
        // PCRE checks such a subject (and refuses it): ask it exactly as for any other text.
        for (const QRegularExpressionMatch &m : fieldExpression().globalMatchView(text))
            found(Field{m.capturedView(1), m.capturedView(2), m.hasCaptured(2), m.capturedStart(), m.capturedEnd()});
        return;
    }
    // The expression, step by step: "key" \s* : \s* then "(?:[^"\\]|\\.)*" or [. Nothing it can
    // backtrack into changes the outcome (the key is closed by a quote, ":" and the quotes are no
    // spaces, an escape pair or a plain character never ends in a quote), so a failure anywhere
    // means no match starts at this quote, and the search goes on at the next character, as PCRE's.
    static constexpr std::u16string_view keys[] = {u"path\"",   u"file_path\"",     u"filePath\"", u"filename\"", u"file\"",
                                                   u"target_file\"", u"notebook_path\"", u"command\"",  u"cmd\""};
    // \s without Unicode properties: space, \t, \n, \v, \f, \r.
    auto isSpace = [](char16_t c) { return c == u' ' || (c >= u'\t' && c <= u'\r'); };
    const char16_t *d = text.utf16();
    const qsizetype n = text.size();
    for (qsizetype at = 0; (at = text.indexOf(u'"', at)) >= 0; ++at) {
        const auto key = std::find_if(std::begin(keys), std::end(keys), [&](std::u16string_view k) { return hasAt(d, n, at + 1, k); });
        if (key == std::end(keys))
            continue;
        Field field;
        field.start = at;
        field.key = text.sliced(at + 1, qsizetype(key->size()) - 1);
        qsizetype p = at + 1 + qsizetype(key->size());
        while (p < n && isSpace(d[p]))
            ++p;
        if (p >= n || d[p] != u':')
            continue;
        ++p;
        while (p < n && isSpace(d[p]))
            ++p;
        if (p >= n || (d[p] != u'"' && d[p] != u'['))
            continue;
        if (d[p] == u'"') {
            const qsizetype valueStart = ++p;
            while (p < n && d[p] != u'"') {
                if (d[p] != u'\\')
                    ++p; // the low half of a pair is neither a quote nor a backslash either
                else if (p + 1 < n && d[p + 1] != u'\n')
                    p += 2; // "." takes anything but a line break (a pair's low half follows on)
                else
                    break;
            }
            if (p >= n || d[p] != u'"')
                continue;
            field.value = text.sliced(valueStart, p - valueStart);
            field.isString = true;
        }
        field.end = p + 1;
        found(field);
        at = field.end - 1; // the next search starts where this match ends
    }
}

bool mayNamePatchedFile(QStringView text)
{
    return text.contains(u"*** ") || text.contains(u"+++ b/");
}

qsizetype nextFailureCandidate(QStringView text, qsizetype from, qsizetype *resume)
{
    const char16_t *d = text.utf16();
    const qsizetype n = text.size();
    qsizetype i = std::max<qsizetype>(from, 0);
#if defined(__SSE2__)
    // Sixteen characters per step: packed to bytes (anything above U+00FF becomes 0x00 or 0xFF),
    // letters folded to lower case, then compared with the characters an alternative starts with.
    const __m128i fold = _mm_set1_epi8(0x20);
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i one = _mm_set1_epi8('1');
    const __m128i eight = _mm_set1_epi8(8);
    const __m128i zero = _mm_setzero_si128();
    auto is = [](__m128i bytes, char c) { return _mm_cmpeq_epi8(bytes, _mm_set1_epi8(c)); };
    while (i + 16 <= n) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i *>(d + i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i *>(d + i + 8));
        const __m128i bytes = _mm_packus_epi16(low, high);
        const __m128i folded = _mm_or_si128(bytes, fold);
        const __m128i letters = _mm_or_si128(
            _mm_or_si128(_mm_or_si128(is(folded, 'c'), is(folded, 'e')), _mm_or_si128(is(folded, 'f'), is(folded, 'n'))),
            _mm_or_si128(_mm_or_si128(is(folded, 'p'), is(folded, 'r')), _mm_or_si128(is(folded, 's'), is(folded, 't'))));
        const __m128i digits = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(bytes, one), eight), zero); // '1'..'9'
        unsigned mask = unsigned(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letters, digits), _mm_cmpeq_epi8(bytes, quote))));
        qsizetype next = i + 16;
        while (mask != 0) {
            const qsizetype at = i + std::countr_zero(mask);
            mask &= mask - 1;
            if (at < from)
                continue;
            if (failureMayStartAt(d, n, at, resume))
                return at;
            from = *resume; // past a run of digits
        }
        i = std::max(next, from);
    }
#endif
    for (i = std::max(i, from); i < n; ++i) {
        if (failureMayStartAt(d, n, i, resume))
            return i;
        i = *resume - 1;
    }
    return -1;
}

Span firstFailure(QStringView text)
{
    const QRegularExpression &failure = failureExpression();
    qsizetype resume = 0;
    qsizetype at = nextFailureCandidate(text, 0, &resume);
    if (at < 0)
        return {};
    if (!isWellFormed(text)) {
        // PCRE checks such a subject (and refuses it): ask it exactly as for any other text.
        const QRegularExpressionMatch m = failure.matchView(text);
        return m.hasMatch() ? Span{m.capturedStart(), m.capturedEnd()} : Span{};
    }
    // The expression looks at nothing before where a match starts, so the leftmost match is the
    // first candidate where an anchored match succeeds. Anchored matches run in PCRE's interpreter
    // (its JIT does not take the option): after a few misses, one JIT search from the next
    // candidate on finishes the job.
    constexpr int kAnchoredTries = 3;
    for (int tries = 0; at >= 0; at = nextFailureCandidate(text, resume, &resume), ++tries) {
        const bool anchored = tries < kAnchoredTries;
        const QRegularExpressionMatch m = failure.matchView(
            text, at, QRegularExpression::NormalMatch,
            anchored ? QRegularExpression::AnchorAtOffsetMatchOption | QRegularExpression::DontCheckSubjectStringMatchOption
                     : QRegularExpression::DontCheckSubjectStringMatchOption);
        if (m.hasMatch())
            return {m.capturedStart(), m.capturedEnd()};
        if (!anchored)
            break;
    }
    return {};
}

bool mayHoldChoice(QStringView text)
{
    // One literal each alternative holds, without an "s" or a "k" (whose caseless matches include
    // U+017F and U+212A): "ll " (I'll <verb>, we will use), "let'", "decide", "tead of", "going w",
    // "cho", "opted", "ather than", "witch", "houl" (we should), "need to", and the Chinese words.
    const char16_t *d = text.utf16();
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = d[i];
        switch (c < 0x80 ? char16_t(c | 0x20) : c) {
        case u'l':
            // "ll " covers every "I'll <verb>" and "we will use"; "let'" every "let's".
            if (hasFoldedAt(d, n, i, u"ll ") || hasFoldedAt(d, n, i, u"let'") || hasFoldedAt(d, n, i, u"let\u2019"))
                return true;
            break;
        case u'n':
            if (hasFoldedAt(d, n, i, u"need to"))
                return true;
            break;
        case u'a':
            if (hasFoldedAt(d, n, i, u"ather than"))
                return true;
            break;
        case u'w':
            if (hasFoldedAt(d, n, i, u"witch"))
                return true;
            break;
        case u'h':
            if (hasFoldedAt(d, n, i, u"houl"))
                return true;
            break;
        case u'\u91C7': // 采用
            if (hasAt(d, n, i, u"\u91C7\u7528"))
                return true;
            break;
        case u'd':
            if (hasFoldedAt(d, n, i, u"decide"))
                return true;
            break;
        case u't':
            if (hasFoldedAt(d, n, i, u"tead of"))
                return true;
            break;
        case u'g':
            if (hasFoldedAt(d, n, i, u"going w"))
                return true;
            break;
        case u'c':
            if (hasFoldedAt(d, n, i, u"cho"))
                return true;
            break;
        case u'o':
            if (hasFoldedAt(d, n, i, u"opted"))
                return true;
            break;
        case u'\u51B3': // 决定
            if (hasAt(d, n, i, u"\u51B3\u5B9A"))
                return true;
            break;
        case u'\u6539': // 改用
            if (hasAt(d, n, i, u"\u6539\u7528"))
                return true;
            break;
        case u'\u9009': // 选择了
            if (hasAt(d, n, i, u"\u9009\u62E9\u4E86"))
                return true;
            break;
        default:
            break;
        }
    }
    return false;
}

namespace {

// The line without one final line break (where "$" also matches).
QStringView withoutFinalBreak(QStringView line)
{
    if (line.endsWith(u"\r\n"))
        return line.chopped(2);
    if (!line.isEmpty()) {
        const char16_t c = line.back().unicode();
        if (c == u'\n' || c == u'\r' || c == u'\v' || c == u'\f' || c == u'\u0085' || c == u'\u2028' || c == u'\u2029')
            return line.chopped(1);
    }
    return line;
}

} // namespace

bool mayBePlanHeader(QStringView line)
{
    // "...:\**$": the line ends with a colon and optional asterisks.
    line = withoutFinalBreak(line);
    qsizetype end = line.size();
    while (end > 0 && line[end - 1] == u'*')
        --end;
    return end > 0 && line[end - 1] == u':';
}

bool mayBeTodo(QStringView line)
{
    if (line.isEmpty())
        return false;
    const char16_t *d = line.utf16();
    const qsizetype n = line.size();
    // "^(?:[-*] \[ \]|\d+[.)]\s|todo|next|then)", with any digit in case digits were Unicode ones.
    if (hasAt(d, n, 0, u"- [ ]") || hasAt(d, n, 0, u"* [ ]") || QChar::isDigit(char32_t(d[0])) || hasFoldedAt(d, n, 0, u"todo")
        || hasFoldedAt(d, n, 0, u"next") || hasFoldedAt(d, n, 0, u"then"))
        return true;
    // "next steps?" anywhere, with the "s" caseless as PCRE has it.
    for (qsizetype i = 0; i + 9 <= n; ++i) {
        if ((d[i] | 0x20) == u'n' && hasFoldedAt(d, n, i, u"next ") && isFoldedS(d[i + 5]) && hasFoldedAt(d, n, i + 6, u"tep"))
            return true;
    }
    return false;
}

} // namespace wl::FactScan
