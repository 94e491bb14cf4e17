#include "Anchors.h"

#include "TextSink.h"

#include <QStringList>

#include <algorithm>
#include <array>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

const QString &notAvailable()
{
    static const QString na = u"N/A"_s;
    return na;
}

bool isSpacePunctOrSymbol(QChar c)
{
    return c.isSpace() || c.isPunct() || c.isSymbol();
}

// isSpacePunctOrSymbol() of the ASCII characters, worked out once (and never changed after):
// most anchor text is ASCII, and QChar's Unicode lookups are calls.
const std::array<bool, 128> &asciiStrippable()
{
    static const std::array<bool, 128> table = [] {
        std::array<bool, 128> t{};
        for (char16_t u = 0; u < 128; ++u)
            t[u] = isSpacePunctOrSymbol(QChar(u));
        return t;
    }();
    return table;
}

// Drops whitespace and punctuation (including markdown emphasis and list markers) at both ends.
QStringView stripSurroundingPunctuation(QStringView text)
{
    const std::array<bool, 128> &ascii = asciiStrippable();
    auto strippable = [&ascii](QChar c) {
        const char16_t u = c.unicode();
        return u < 128 ? ascii[u] : isSpacePunctOrSymbol(c);
    };
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && strippable(text[begin]))
        ++begin;
    while (end > begin && strippable(text[end - 1]))
        --end;
    return text.sliced(begin, end - begin);
}

bool startsWithWord(QStringView text, QStringView word)
{
    if (!text.startsWith(word, Qt::CaseInsensitive))
        return false;
    return text.size() == word.size() || !text[word.size()].isLetterOrNumber();
}

// What may follow an unknown word and leave it unknown, after a space: "none yet", "N/A so far",
// "none identified". Anything else after a space is a sentence ("None of the tests pass").
bool isQualifierAfterUnknown(QStringView rest)
{
    static constexpr QStringView qualifiers[] = {
        u"yet", u"so far", u"for now", u"at this point", u"at this stage", u"at the moment", u"currently",
        u"identified", u"recorded", u"noted", u"made", u"reported", u"found", u"needed", u"required", u"given",
        u"provided", u"mentioned", u"specified", u"new",
    };
    return std::any_of(std::begin(qualifiers), std::end(qualifiers),
                       [&](QStringView q) { return startsWithWord(rest, q); });
}

// "N/A (no new decisions)", "none - nothing was decided", "unknown: not discussed", "none yet": an
// unknown word with a qualifier that says only why it is unknown (issue #31: never a value).
bool isQualifiedUnknown(QStringView text)
{
    static constexpr QStringView unknownWords[] = {u"N/A", u"NA", u"none", u"unknown", u"not applicable", u"nothing"};
    for (QStringView word : unknownWords) {
        if (!startsWithWord(text, word))
            continue;
        QStringView rest = text.sliced(word.size());
        if (rest.isEmpty())
            return true;
        // Directly after the word: a bracket, a dash, a colon... ("N/A (none)", "none: nothing decided").
        if (!rest[0].isSpace())
            return rest[0].isPunct() || rest[0].isSymbol();
        rest = rest.trimmed();
        if (rest.isEmpty() || rest[0].isPunct() || rest[0].isSymbol())
            return true; // "N/A (no new decisions)", "none - nothing was decided"
        return isQualifierAfterUnknown(rest);
    }
    // "No new decisions", "no further steps identified", "no decisions yet": nothing of the anchor's
    // own kind. "No new dependencies" is a decision, so only these nouns count.
    if (!startsWithWord(text, u"no"))
        return false;
    QStringView rest = text.sliced(2).trimmed();
    bool qualified = false;
    for (QStringView word : {u"new", u"further", u"other"}) {
        if (startsWithWord(rest, word)) {
            rest = rest.sliced(word.size()).trimmed();
            qualified = true;
            break;
        }
    }
    static constexpr QStringView anchorNouns[] = {
        u"decisions", u"decision", u"next steps", u"steps", u"progress", u"solutions", u"attempts",
        u"information", u"info", u"items", u"updates", u"intent", u"tasks",
    };
    for (QStringView noun : anchorNouns) {
        if (!startsWithWord(rest, noun))
            continue;
        const QStringView after = rest.sliced(noun.size()).trimmed();
        return qualified || after.isEmpty() || after[0].isPunct() || isQualifierAfterUnknown(after)
            || startsWithWord(after, u"were") || startsWithWord(after, u"have");
    }
    return false;
}

// A line that says nothing: empty, "-", N/A, NA, none or unknown once whitespace, list markers
// ("-", "*", "\u2022") and surrounding punctuation are gone, or one of those with a qualifier that
// says why ("N/A (no new decisions)"). All of the markers are whitespace or punctuation, so one
// strip of both ends removes them all.
bool isUnknownLine(QStringView line)
{
    const QStringView text = stripSurroundingPunctuation(line);
    if (text.isEmpty())
        return true;
    return isQualifiedUnknown(text);
}

// A user intent that is only a nudge to go on ("continue", "go ahead.", "- ok"): it says what to do
// next, not what the work is, so it never replaces a known intent.
bool isFollowUpOnly(const QString &value)
{
    const QStringView text = stripSurroundingPunctuation(value);
    if (text.isEmpty() || text.size() > 24)
        return false;
    static constexpr QStringView followUps[] = {
        u"continue", u"continue please", u"please continue", u"go on", u"go ahead", u"proceed", u"please proceed",
        u"keep going", u"carry on", u"resume", u"next", u"yes", u"ok", u"okay", u"do it", u"sure",
    };
    for (QStringView word : followUps) {
        if (text.compare(word, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

// "### Key Decisions" -> KeyDecision; singular and plural accepted, case-insensitive.
bool anchorKindForHeader(QStringView header, AnchorKind *kind)
{
    const QStringView name = stripSurroundingPunctuation(header);
    static constexpr struct
    {
        QStringView name;
        AnchorKind kind;
    } table[] = {
        {u"user intent", AnchorKind::UserIntent},
        {u"user intents", AnchorKind::UserIntent},
        {u"execution progress", AnchorKind::ExecutionProgress},
        {u"key decision", AnchorKind::KeyDecision},
        {u"key decisions", AnchorKind::KeyDecision},
        {u"tried solution", AnchorKind::TriedSolution},
        {u"tried solutions", AnchorKind::TriedSolution},
        {u"next step", AnchorKind::NextStep},
        {u"next steps", AnchorKind::NextStep},
    };
    for (const auto &entry : table) {
        if (name.compare(entry.name, Qt::CaseInsensitive) == 0) {
            *kind = entry.kind;
            return true;
        }
    }
    return false;
}

// A markdown heading of exactly `level` hashes followed by a space; returns its text.
bool headingOfLevel(QStringView trimmedLine, int level, QStringView *text)
{
    if (trimmedLine.size() <= level)
        return false;
    for (int i = 0; i < level; ++i) {
        if (trimmedLine[i] != u'#')
            return false;
    }
    if (!trimmedLine[level].isSpace())
        return false;
    *text = trimmedLine.sliced(level).trimmed();
    return true;
}

} // namespace

QString anchorKey(AnchorKind kind)
{
    switch (kind) {
    case AnchorKind::UserIntent: return u"user_intent"_s;
    case AnchorKind::ExecutionProgress: return u"execution_progress"_s;
    case AnchorKind::KeyDecision: return u"key_decision"_s;
    case AnchorKind::TriedSolution: return u"tried_solution"_s;
    case AnchorKind::NextStep: return u"next_step"_s;
    }
    return {};
}

QString anchorHeader(AnchorKind kind)
{
    switch (kind) {
    case AnchorKind::UserIntent: return u"User Intent"_s;
    case AnchorKind::ExecutionProgress: return u"Execution Progress"_s;
    case AnchorKind::KeyDecision: return u"Key Decisions"_s;
    case AnchorKind::TriedSolution: return u"Tried Solutions"_s;
    case AnchorKind::NextStep: return u"Next Steps"_s;
    }
    return {};
}

QString anchorChangeName(AnchorChange change)
{
    switch (change) {
    case AnchorChange::New: return u"new"_s;
    case AnchorChange::Updated: return u"updated"_s;
    case AnchorChange::Unchanged: return u"unchanged"_s;
    case AnchorChange::Kept: return u"kept"_s;
    }
    return {};
}

bool anchorChangeFromName(QStringView name, AnchorChange *change)
{
    for (AnchorChange candidate : {AnchorChange::New, AnchorChange::Updated, AnchorChange::Unchanged, AnchorChange::Kept}) {
        if (name == anchorChangeName(candidate)) {
            if (change)
                *change = candidate;
            return true;
        }
    }
    return false;
}

QJsonObject Anchors::toJson() const
{
    QJsonObject object;
    for (AnchorKind kind : kAllAnchorKinds)
        object.insert(anchorKey(kind), value(kind));
    return object;
}

Anchors Anchors::fromJson(const QJsonObject &object)
{
    Anchors anchors;
    for (AnchorKind kind : kAllAnchorKinds) {
        const QJsonValue v = object.value(anchorKey(kind));
        anchors.setValue(kind, v.isString() ? v.toString() : notAvailable());
    }
    return anchors;
}

bool isUnknownAnchorValue(const QString &value)
{
    // A value is unknown when no line of it says anything ("- N/A\n- none" included).
    QStringView rest(value);
    for (;;) {
        const qsizetype end = rest.indexOf(u'\n');
        if (!isUnknownLine(end < 0 ? rest : rest.first(end)))
            return false;
        if (end < 0)
            return true;
        rest = rest.sliced(end + 1);
    }
}

ParsedSummary parseAnchorsAndSummary(const QString &text)
{
    ParsedSummary result;
    std::array<QStringList, kAnchorCount> bodies;
    enum class State { Preamble, Anchor, IgnoredSection, Summary } state = State::Preamble;
    AnchorKind current = AnchorKind::UserIntent;
    qsizetype summaryStart = -1;

    qsizetype pos = 0;
    const qsizetype size = text.size();
    while (pos <= size) {
        qsizetype end = text.indexOf(u'\n', pos);
        if (end < 0)
            end = size;
        const QStringView line = QStringView(text).sliced(pos, end - pos);
        const qsizetype next = end + 1;
        const QStringView trimmed = line.trimmed();
        QStringView heading;
        if (headingOfLevel(trimmed, 3, &heading)) {
            AnchorKind kind;
            if (anchorKindForHeader(heading, &kind)) {
                current = kind;
                state = State::Anchor;
                result.structured = true;
            } else {
                state = State::IgnoredSection;
            }
        } else if (headingOfLevel(trimmed, 2, &heading)) {
            if (heading.compare(u"Summary", Qt::CaseInsensitive) == 0) {
                result.structured = true;
                summaryStart = next;
                break;
            }
            // "## Anchors" opens the anchor block; any other "## " section before the summary is ignored.
            state = State::IgnoredSection;
        } else if (state == State::Anchor) {
            bodies[size_t(current)].append(line.toString());
        }
        pos = next;
    }

    for (AnchorKind kind : kAllAnchorKinds) {
        const QString body = bodies[size_t(kind)].join(u'\n').trimmed();
        result.anchors.setValue(kind, body.isEmpty() ? notAvailable() : body);
    }
    if (summaryStart >= 0 && summaryStart < size)
        result.summary = QStringView(text).sliced(summaryStart).trimmed().toString();
    return result;
}

AnchorMerge mergeAnchors(const Anchors &old, const Anchors &incoming)
{
    AnchorMerge merge;
    for (AnchorKind kind : kAllAnchorKinds) {
        const size_t i = size_t(kind);
        const QString &before = old.value(kind);
        const QString &after = incoming.value(kind);
        const bool nudgeOnly = kind == AnchorKind::UserIntent && isFollowUpOnly(after) && !isUnknownAnchorValue(before);
        if (isUnknownAnchorValue(after) || nudgeOnly) {
            merge.anchors.setValue(kind, before);
            merge.changes[i] = AnchorChange::Kept;
        } else if (isUnknownAnchorValue(before)) {
            merge.anchors.setValue(kind, after);
            merge.changes[i] = AnchorChange::New;
        } else {
            merge.anchors.setValue(kind, after);
            merge.changes[i] = before.trimmed() == after.trimmed() ? AnchorChange::Unchanged : AnchorChange::Updated;
        }
    }
    return merge;
}

namespace {
constexpr QStringView kAnchorsHeading = u"## Anchors\n";
constexpr QStringView kSectionStart = u"### ";

// An anchor value's lines, each ended by a newline.
template<typename Sink>
void writeAnchorValue(Sink &out, QStringView value)
{
    // A value line that looks like a heading would end the section when read back: escape it.
    for (QStringView line : value.tokenize(u'\n')) {
        if (line.trimmed().startsWith(u"##"))
            out.put(u'\\');
        out.put(line);
        out.put(u'\n');
    }
}

// "## Anchors", then each section: its "### " header line and its value's lines.
template<typename Sink>
void writeAnchors(Sink &out, const Anchors &anchors)
{
    out.putAscii(kAnchorsHeading);
    for (AnchorKind kind : kAllAnchorKinds) {
        out.putAscii(kSectionStart);
        out.putAscii(anchorHeader(kind));
        out.put(u'\n');
        writeAnchorValue(out, anchors.value(kind));
    }
}
} // namespace

QString formatAnchors(const Anchors &anchors)
{
    qsizetype size = 16;
    for (AnchorKind kind : kAllAnchorKinds)
        size += anchors.value(kind).size() + 48;
    QString out;
    out.reserve(size);
    text::TextAppender appender(out);
    writeAnchors(appender, anchors);
    return out;
}

qint64 formattedAnchorsBytes(const Anchors &anchors)
{
    // The sum of the pieces writeAnchors() writes, without walking each value line by line: a
    // value with no '#' has no line to escape, and its lines with their newlines take its own
    // bytes plus one (the newline after the last line). Others are counted as they are written.
    qint64 bytes = kAnchorsHeading.size();
    for (AnchorKind kind : kAllAnchorKinds) {
        bytes += kSectionStart.size() + anchorHeader(kind).size() + 1;
        const QString &value = anchors.value(kind);
        if (!value.isEmpty() && !value.contains(u'#')) {
            bytes += utf8ByteCount(value) + 1;
        } else {
            text::ByteCounter counter;
            writeAnchorValue(counter, value);
            bytes += counter.bytes();
        }
    }
    return bytes;
}

} // namespace wl
