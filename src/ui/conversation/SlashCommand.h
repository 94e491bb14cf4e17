#pragma once

#include <QList>
#include <QString>

namespace wl {

// The prompt's slash commands.
enum class SlashCommand { Compact, CompactForce, UndoCompaction, NewSession, Retry };

struct SlashCommandInfo
{
    SlashCommand command;
    QString text;         // "/compact force"
    QString description;  // translated, shown in the completer popup
};

// All commands, in the order the completer lists them.
QList<SlashCommandInfo> slashCommands();

enum class SlashParse {
    NotACommand,   // ordinary text: send it
    Command,       // exactly one known command (whitespace and case do not matter)
    Unknown,       // looks like a command ("/word ...") but is not one
};

// Text that starts with "/" followed by a letter is a command; a leading space sends it as text.
SlashParse parseSlashCommand(const QString &text, SlashCommand *command);

} // namespace wl
