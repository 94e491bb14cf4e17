#include "SlashCommand.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace wl {

QList<SlashCommandInfo> slashCommands()
{
    return {
        {SlashCommand::Compact, u"/compact"_s,
         QCoreApplication::translate("wl::SlashCommand", "Compact the context if a tier is reached")},
        {SlashCommand::CompactForce, u"/compact force"_s,
         QCoreApplication::translate("wl::SlashCommand", "Compact the context now, whatever the tier")},
        {SlashCommand::UndoCompaction, u"/undo-compaction"_s,
         QCoreApplication::translate("wl::SlashCommand", "Restore the context from before the last compaction")},
        {SlashCommand::NewSession, u"/new"_s, QCoreApplication::translate("wl::SlashCommand", "Start a new session")},
        {SlashCommand::Retry, u"/retry"_s,
         QCoreApplication::translate("wl::SlashCommand", "Send the last request again")},
    };
}

SlashParse parseSlashCommand(const QString &text, SlashCommand *command)
{
    if (text.size() < 2 || text.front() != u'/' || !text.at(1).isLetter())
        return SlashParse::NotACommand;
    // "/usr/bin/env fails" is a message about a path, not a command.
    const QString firstWord = text.section(u' ', 0, 0).section(u'\n', 0, 0);
    if (firstWord.indexOf(u'/', 1) >= 0)
        return SlashParse::NotACommand;
    const QString normalised = text.simplified().toLower();
    for (const SlashCommandInfo &info : slashCommands()) {
        if (normalised == info.text) {
            if (command)
                *command = info.command;
            return SlashParse::Command;
        }
    }
    return SlashParse::Unknown;
}

} // namespace wl
