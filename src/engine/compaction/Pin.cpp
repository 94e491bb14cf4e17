#include "Pin.h"

#include "model/Message.h"

using namespace Qt::StringLiterals;

namespace wl {

QString Pin::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Message: return u"message"_s;
    case Kind::Selection: return u"selection"_s;
    case Kind::Note: return u"note"_s;
    }
    return u"note"_s;
}

bool Pin::kindFromName(const QString &name, Kind *kind)
{
    for (Kind k : {Kind::Message, Kind::Selection, Kind::Note}) {
        if (name == kindName(k)) {
            *kind = k;
            return true;
        }
    }
    return false;
}

QString Pin::sourceName(Source source)
{
    return source == Source::Model ? u"model"_s : u"user"_s;
}

bool Pin::sourceFromName(const QString &name, Source *source)
{
    if (name == u"user")
        *source = Source::User;
    else if (name == u"model")
        *source = Source::Model;
    else
        return false;
    return true;
}

QString Pin::textOf(const Message &message)
{
    QString out = message.content;
    for (const ToolCall &call : message.toolCalls) {
        if (!out.isEmpty())
            out += u'\n';
        out += u"[tool_call "_s + call.name + u"]: "_s + call.arguments;
    }
    return out;
}

} // namespace wl
