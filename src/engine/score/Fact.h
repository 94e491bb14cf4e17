#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace wl {

// One fact a session established (issue 21): something the user asked or forbade, a file a tool
// touched, a command's outcome, or an identifier that a tool result or the user introduced.
struct Fact
{
    enum class Kind { Instruction, Artifact, Outcome, Identifier };

    Kind kind = Kind::Identifier;
    QString text;           // as a person reads it: the sentence, "edit src/a.go", "`make` exited 2"
    QString key;            // what is searched for: the sentence, the path, the command, the token
    QStringList terms;      // instructions: the tokens in the sentence (a later use of one uses it)
    qsizetype message = -1; // history index of the message it first appears in
    // History indexes of the messages that hold it (ascending, `message` first): a view that shows
    // any of them before a request holds the fact verbatim.
    QList<qsizetype> occurrences;
};

QString factKindName(Fact::Kind kind); // "instruction", "artifact", "outcome", "identifier"
inline constexpr int kFactKindCount = 4;

} // namespace wl
