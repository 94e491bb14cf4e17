#include "ToolKind.h"

#include <QHash>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace wl {

ToolKind toolKindOf(const QString &name)
{
    static const QHash<QString, ToolKind> kinds{
        {u"write_file"_s, ToolKind::Edit},       {u"edit_file"_s, ToolKind::Edit},
        {u"apply_patch"_s, ToolKind::Edit},      {u"str_replace_editor"_s, ToolKind::Edit},
        {u"str_replace_based_edit_tool"_s, ToolKind::Edit}, {u"write"_s, ToolKind::Edit},
        {u"edit"_s, ToolKind::Edit},             {u"multiedit"_s, ToolKind::Edit},
        {u"create_file"_s, ToolKind::Edit},      {u"replace_in_file"_s, ToolKind::Edit},
        {u"write_to_file"_s, ToolKind::Edit},    {u"notebookedit"_s, ToolKind::Edit},
        {u"apply_diff"_s, ToolKind::Edit},       {u"file_editor"_s, ToolKind::Edit},
        {u"bash"_s, ToolKind::Shell},            {u"shell"_s, ToolKind::Shell},
        {u"exec_command"_s, ToolKind::Shell},    {u"execute_bash"_s, ToolKind::Shell},
        {u"run_command"_s, ToolKind::Shell},     {u"run_shell_command"_s, ToolKind::Shell},
        {u"execute_command"_s, ToolKind::Shell}, {u"local_shell"_s, ToolKind::Shell},
        {u"run_terminal_cmd"_s, ToolKind::Shell}, {u"terminal"_s, ToolKind::Shell},
        {u"read_file"_s, ToolKind::Read},        {u"read"_s, ToolKind::Read},
        {u"view_file"_s, ToolKind::Read},        {u"open"_s, ToolKind::Read},
        {u"notebookread"_s, ToolKind::Read},
        {u"update_plan"_s, ToolKind::Plan},      {u"todowrite"_s, ToolKind::Plan},
    };
    return kinds.value(name.toLower(), ToolKind::Other);
}

bool writesWholeFiles(const QString &name)
{
    static const QStringList writers{u"write"_s, u"write_file"_s, u"create_file"_s, u"write_to_file"_s};
    return writers.contains(name, Qt::CaseInsensitive);
}

} // namespace wl
