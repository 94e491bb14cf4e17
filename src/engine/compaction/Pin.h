#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace wl {

struct Message;

// A pinned fact (docs/COMPACTION.md section 12): content the user (or, with approval, the model)
// wants kept verbatim in every view. The text is copied when the pin is made, so the pinned
// section never depends on which history messages a view shows.
struct Pin
{
    enum class Kind : quint8 {
        Message,   // a whole message: messageId, its text
        Selection, // a part of a message: messageId, the selected text
        Note,      // free text (messageId 0)
    };
    enum class Source : quint8 {
        User,
        Model, // proposed by the agent through pin_fact and approved
    };

    qint64 id = 0;         // store row id, 0 while not stored
    Kind kind = Kind::Note;
    Source source = Source::User;
    qint64 messageId = 0;
    QString text;
    QString reason;        // why the model proposed it (Source::Model), else empty
    QDateTime createdAt;

    friend bool operator==(const Pin &, const Pin &) = default;

    static QString kindName(Kind kind);   // "message", "selection", "note"
    static bool kindFromName(const QString &name, Kind *kind);
    static QString sourceName(Source source); // "user", "model"
    static bool sourceFromName(const QString &name, Source *source);
    // What a whole-message pin of `message` holds: its text, or for an assistant message with only
    // tool calls, one "[tool_call <name>]: <arguments>" line per call.
    static QString textOf(const Message &message);
};

} // namespace wl
