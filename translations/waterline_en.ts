<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>DemoSession</name>
    <message numerus="yes">
        <source>it holds %n session(s) that are not the demo&apos;s</source>
        <translation>
            <numerusform>it holds %n session that is not the demo&apos;s</numerusform>
            <numerusform>it holds %n sessions that are not the demo&apos;s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimelineToolTip</name>
    <message numerus="yes">
        <source>%n fact(s) this request used were lost from its view under this policy</source>
        <translation>
            <numerusform>%n fact this request used was lost from its view under this policy</numerusform>
            <numerusform>%n facts this request used were lost from its view under this policy</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TranscriptImport</name>
    <message numerus="yes">
        <source>%n record(s) of the main conversation in this sub-agent file were left out</source>
        <translation>
            <numerusform>%n record of the main conversation in this sub-agent file was left out</numerusform>
            <numerusform>%n records of the main conversation in this sub-agent file were left out</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sub-agent (sidechain) record(s) were left out: the main model never saw them</source>
        <translation>
            <numerusform>%n sub-agent (sidechain) record was left out: the main model never saw it</numerusform>
            <numerusform>%n sub-agent (sidechain) records were left out: the main model never saw them</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: session %2 does not exist; the file holds %n session(s)</source>
        <translation>
            <numerusform>%1: session %2 does not exist; the file holds %n session</numerusform>
            <numerusform>%1: session %2 does not exist; the file holds %n sessions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: run %2 does not exist; the file holds %n run(s)</source>
        <translation>
            <numerusform>%1: run %2 does not exist; the file holds %n run</numerusform>
            <numerusform>%1: run %2 does not exist; the file holds %n runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>waterline-cli</name>
    <message numerus="yes">
        <source>--session-id: %1 holds no session &apos;%2&apos;; its %n session(s):</source>
        <translation>
            <numerusform>--session-id: %1 holds no session &apos;%2&apos;; its %n session:</numerusform>
            <numerusform>--session-id: %1 holds no session &apos;%2&apos;; its %n sessions:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::ComparePoliciesWindow</name>
    <message numerus="yes">
        <source>Replaying %n policies...</source>
        <translation>
            <numerusform>Replaying %n policy...</numerusform>
            <numerusform>Replaying %n policies...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n policies over %1 session(s); %2 on the Pareto front (cost against coverage).</source>
        <translation>
            <numerusform>%n policy over %1 session(s); %2 on the Pareto front (cost against coverage).</numerusform>
            <numerusform>%n policies over %1 session(s); %2 on the Pareto front (cost against coverage).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::ConversationDelegate</name>
    <message numerus="yes">
        <source>%n secret(s) removed</source>
        <translation>
            <numerusform>%n secret removed</numerusform>
            <numerusform>%n secrets removed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::DefinitionMenu</name>
    <message numerus="yes">
        <source>%n more: type more letters</source>
        <translation>
            <numerusform>%n more: type more letters</numerusform>
            <numerusform>%n more: type more letters</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::FindBar</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at least %n match(es)</source>
        <translation>
            <numerusform>at least %n match</numerusform>
            <numerusform>at least %n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::MainWindow</name>
    <message numerus="yes">
        <source>%1: %n message(s)</source>
        <translation>
            <numerusform>%1: %n message</numerusform>
            <numerusform>%1: %n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n request(s)</source>
        <translation>
            <numerusform>, %n request</numerusform>
            <numerusform>, %n requests</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n compaction(s)</source>
        <translation>
            <numerusform>, %n compaction</numerusform>
            <numerusform>, %n compactions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) kept in the demo&apos;s database by an older Waterline moved to your sessions.</source>
        <translation>
            <numerusform>%n session kept in the demo&apos;s database by an older Waterline moved to your sessions.</numerusform>
            <numerusform>%n sessions kept in the demo&apos;s database by an older Waterline moved to your sessions.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n import(s) interrupted in an earlier run removed; import the file again to have it.</source>
        <translation>
            <numerusform>%n import interrupted in an earlier run removed; import the file again to have it.</numerusform>
            <numerusform>%n imports interrupted in an earlier run removed; import the files again to have them.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::PinsPanel</name>
    <message numerus="yes">
        <source>%n pin(s), %1 tokens, kept verbatim in every request.</source>
        <translation>
            <numerusform>%n pin, %1 tokens, kept verbatim in every request.</numerusform>
            <numerusform>%n pins, %1 tokens, kept verbatim in every request.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pin(s), %1 of %2 tokens, kept verbatim in every request.</source>
        <translation>
            <numerusform>%n pin, %1 of %2 tokens, kept verbatim in every request.</numerusform>
            <numerusform>%n pins, %1 of %2 tokens, kept verbatim in every request.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::Preflight</name>
    <message numerus="yes">
        <source>cut %n message(s) to their head and end; the whole of each is in its file</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>replaced the earlier context (%n message(s)) by a note naming %1, which holds it whole</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::SummaryReviewDialog</name>
    <message numerus="yes">
        <source>Drafted in the background at request %1; the newest %n message(s) were added when the tier fired.</source>
        <translation>
            <numerusform>Drafted in the background at request %1; the newest %n message was added when the tier fired.</numerusform>
            <numerusform>Drafted in the background at request %1; the newest %n messages were added when the tier fired.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::ThresholdsPanel</name>
    <message numerus="yes">
        <source>Replayed %n request(s) in %1 ms</source>
        <translation>
            <numerusform>Replayed %n request in %1 ms</numerusform>
            <numerusform>Replayed %n requests in %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the recorded ones. They add %2 tokens sent (%3 without them).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the recorded ones. With the compactions they bring forward, %2 fewer tokens are sent (%3 without them).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
