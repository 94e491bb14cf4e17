<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BoundedInteger</name>
    <message>
        <source>%1: %2 is not a whole number from %3 to %4</source>
        <translation>%1：%2 不是 %3 到 %4 之间的整数</translation>
    </message>
    <message>
        <source>%1: expected a whole number, got %2</source>
        <translation>%1：应为整数，实际为 %2</translation>
    </message>
</context>
<context>
    <name>BoundedLineReader</name>
    <message>
        <source>line is longer than %1 MB; this is not a line of the format</source>
        <translation>该行超过 %1 MB，不是该格式中的行</translation>
    </message>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
</context>
<context>
    <name>CompactionBackfill</name>
    <message>
        <source>invalid policy: %1</source>
        <translation>策略无效：%1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a session id</source>
        <translation>&quot;%1&quot; 不是会话 ID</translation>
    </message>
    <message>
        <source>session %1 already has compaction overlays or records; replay starts from the raw history</source>
        <translation>会话 %1 已有压缩覆盖层或记录；重放将从原始历史开始</translation>
    </message>
    <message>
        <source>session %1 has no workspace folder for the offloaded results</source>
        <translation>会话 %1 没有用于存放卸载结果的工作区文件夹</translation>
    </message>
    <message>
        <source>replay of session %1 cancelled after %2 of %3 requests</source>
        <translation>会话 %1 的重放已取消，已完成 %2/%3 个请求</translation>
    </message>
    <message>
        <source>replay of request %1: %2</source>
        <translation>重放请求 %1：%2</translation>
    </message>
    <message>
        <source>replay of request %1: the view&apos;s messages are not in id order</source>
        <translation>重放请求 %1：视图中的消息未按 ID 顺序排列</translation>
    </message>
</context>
<context>
    <name>CompactionDetail</name>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>Nothing: this compaction wrote no summary.</source>
        <translation>无：此次压缩没有写出摘要。</translation>
    </message>
    <message>
        <source>%1 messages, history #%2 to #%3, replaced by the checkpoint below.</source>
        <translation>%1 条消息（历史 #%2 至 #%3），已由下方的检查点替换。</translation>
    </message>
    <message>
        <source>%1 messages, replaced by the checkpoint below.</source>
        <translation>%1 条消息，已由下方的检查点替换。</translation>
    </message>
    <message>
        <source>The last %1 messages were kept as they were.</source>
        <translation>最后 %1 条消息原样保留。</translation>
    </message>
    <message>
        <source>Nothing.</source>
        <translation>无。</translation>
    </message>
    <message>
        <source>%1 (call %2): %3, %4 lines, %5 bytes</source>
        <translation>%1（调用 %2）：%3，%4 行，%5 字节</translation>
    </message>
    <message>
        <source>tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <source>None: without a summary the anchors stay as they were.</source>
        <translation>无：没有摘要，锚点保持原样。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 (%2):</source>
        <translation>%1（%2）：</translation>
    </message>
    <message>
        <source>None changed.</source>
        <translation>没有变化。</translation>
    </message>
    <message>
        <source>As before: %1.</source>
        <translation>与之前相同：%1。</translation>
    </message>
    <message>
        <source>%1 compaction before request %2</source>
        <translation>请求 %2 之前的%1级压缩</translation>
    </message>
    <message>
        <source>%1 → %2 tokens, %3 → %4 messages, %5 ms.</source>
        <translation>%1 → %2 个 token，%3 → %4 条消息，耗时 %5 毫秒。</translation>
    </message>
    <message>
        <source>Forced at %1 % of the %2-token window.</source>
        <translation>在占用 %2 个 token 窗口的 %1% 时强制执行。</translation>
    </message>
    <message>
        <source>Chosen at %1 % of the %2-token window.</source>
        <translation>在占用 %2 个 token 窗口的 %1% 时触发。</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Summarised</source>
        <translation>已摘要</translation>
    </message>
    <message>
        <source>Offloaded</source>
        <translation>已卸载</translation>
    </message>
    <message>
        <source>Anchors changed</source>
        <translation>锚点变化</translation>
    </message>
    <message>
        <source>Checkpoint text</source>
        <translation>检查点文本</translation>
    </message>
    <message>
        <source>This compaction wrote no checkpoint.</source>
        <translation>此次压缩没有写出检查点。</translation>
    </message>
    <message>
        <source>Strategy: %1.</source>
        <translation>策略：%1。</translation>
    </message>
    <message>
        <source>Checkpoint text (version %1, edited; earlier versions are kept)</source>
        <translation>检查点文本（版本 %1，已编辑；较早的版本会保留）</translation>
    </message>
    <message>
        <source>The history up to the checkpoint below, which replaces it.</source>
        <translation>截至下方检查点的历史，由该检查点取代。</translation>
    </message>
    <message>
        <source>message cut to its head and end; the whole in %1, %2 lines, %3 bytes</source>
        <translation>消息已截断为开头和结尾；完整内容在 %1 中，%2 行，%3 字节</translation>
    </message>
</context>
<context>
    <name>CompactionPolicy</name>
    <message>
        <source>%1 threshold %2 is outside (0, 1]</source>
        <translation>%1 阈值 %2 超出 (0, 1] 范围</translation>
    </message>
    <message>
        <source>%1 threshold %2 is below the %3 threshold %4</source>
        <translation>%1 阈值 %2 低于 %3 阈值 %4</translation>
    </message>
    <message>
        <source>tailMessages %1 must be at least 1</source>
        <translation>tailMessages %1 必须至少为 1</translation>
    </message>
    <message>
        <source>offloadAtToolTime %1 must not be negative</source>
        <translation>offloadAtToolTime %1 不能为负数</translation>
    </message>
    <message>
        <source>offloadAtCompaction %1 must not be negative</source>
        <translation>offloadAtCompaction %1 不能为负数</translation>
    </message>
    <message>
        <source>previewLinesToolTime %1 must not be negative</source>
        <translation>previewLinesToolTime %1 不能为负数</translation>
    </message>
    <message>
        <source>previewLinesCompaction %1 must not be negative</source>
        <translation>previewLinesCompaction %1 不能为负数</translation>
    </message>
    <message>
        <source>summaryTimeoutMs %1 must be positive</source>
        <translation>summaryTimeoutMs %1 必须为正数</translation>
    </message>
    <message>
        <source>reservedOutput %1 must not be negative</source>
        <translation>reservedOutput %1 不能为负数</translation>
    </message>
    <message>
        <source>%1 must be a number</source>
        <translation>%1 必须是数字</translation>
    </message>
    <message>
        <source>count_tool_schemas must be true or false</source>
        <translation>count_tool_schemas 必须是 true 或 false</translation>
    </message>
    <message>
        <source>review_summaries must be true or false</source>
        <translation>review_summaries 必须为 true 或 false</translation>
    </message>
    <message>
        <source>strategy must be one of summarise, mask, hybrid</source>
        <translation>strategy 必须是 summarise、mask 或 hybrid 之一</translation>
    </message>
</context>
<context>
    <name>DemoSession</name>
    <message>
        <source>The demo session replays a real Claude Code session from marot/spotter (test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl, MIT licence).</source>
        <translation>演示会话重放了来自 marot/spotter 的一个真实 Claude Code 会话（test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl，MIT 许可证）。</translation>
    </message>
    <message>
        <source>Preparing the demo session</source>
        <translation>正在准备演示会话</translation>
    </message>
    <message>
        <source>Could not create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Could not unpack the demo transcript to %1.</source>
        <translation>无法将演示对话记录解压到 %1。</translation>
    </message>
    <message>
        <source>Demo: a Claude Code session, replayed</source>
        <translation>演示：一个重放的 Claude Code 会话</translation>
    </message>
    <message>
        <source>Importing the demo transcript</source>
        <translation>正在导入演示对话记录</translation>
    </message>
    <message>
        <source>Replaying it with Waterline&apos;s compaction</source>
        <translation>正在用 Waterline 的压缩机制重放</translation>
    </message>
    <message>
        <source>Demo session ready</source>
        <translation>演示会话已就绪</translation>
    </message>
    <message numerus="yes">
        <source>it holds %n session(s) that are not the demo&apos;s</source>
        <translation>
            <numerusform>其中有 %n 个不属于演示的会话</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 was left as it is: %2</source>
        <translation>%1 保持原样：%2</translation>
    </message>
    <message>
        <source>The demo cannot be built: %1 was left as it is (%2).</source>
        <translation>无法构建演示：%1 保持原样（%2）。</translation>
    </message>
    <message>
        <source>it cannot be renamed to %1</source>
        <translation>无法重命名为 %1</translation>
    </message>
</context>
<context>
    <name>DockPanels</name>
    <message>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Your agent sessions: open one, or start a new one in a workspace folder.</source>
        <translation>你的智能体会话：打开一个会话，或在某个工作区文件夹中开始新会话。</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Context utilisation per LLM request against the compaction thresholds.</source>
        <translation>每次 LLM 请求的上下文占用率，以及与压缩阈值的对照。</translation>
    </message>
    <message>
        <source>Thresholds</source>
        <translation>阈值</translation>
    </message>
    <message>
        <source>Tune the compaction policy and replay the session under it.</source>
        <translation>调整压缩策略，并按新策略重放会话。</translation>
    </message>
    <message>
        <source>Anchors</source>
        <translation>锚点</translation>
    </message>
    <message>
        <source>The five anchors and how they merged across compactions.</source>
        <translation>五个锚点，以及它们在历次压缩中如何合并。</translation>
    </message>
    <message>
        <source>Offloads</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Tool results moved out of the context into files, with a viewer.</source>
        <translation>被移出上下文、写入文件的工具结果，附带查看器。</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>What the model actually saw for the selected request, beside the full history.</source>
        <translation>所选请求中模型实际看到的内容，与完整历史并列对照。</translation>
    </message>
    <message>
        <source>Compactions</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>Every compaction record: tier, tokens before and after, summariser, errors.</source>
        <translation>所有压缩记录：层级、压缩前后的 token 数、摘要器、错误。</translation>
    </message>
    <message>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <source>A local proxy to point any agent at: its address, the settings to paste and the requests that pass.</source>
        <translation>可供任意代理程序接入的本地代理：其地址、要粘贴的设置以及经过的请求。</translation>
    </message>
</context>
<context>
    <name>JsonStreamScanner</name>
    <message>
        <source>read error: %1</source>
        <translation>读取错误：%1</translation>
    </message>
    <message>
        <source>line break inside a string (truncated value?)</source>
        <translation>字符串中出现换行（值被截断？）</translation>
    </message>
    <message>
        <source>control character inside a string</source>
        <translation>字符串中出现控制字符</translation>
    </message>
    <message>
        <source>unexpected &apos;%1&apos;</source>
        <translation>意外的 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>unexpected &apos;:&apos;</source>
        <translation>意外的 &apos;:&apos;</translation>
    </message>
    <message>
        <source>unexpected &apos;,&apos;</source>
        <translation>意外的 &apos;,&apos;</translation>
    </message>
    <message>
        <source>unexpected character &apos;%1&apos;</source>
        <translation>意外的字符 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>unexpected end of input (truncated JSON)</source>
        <translation>输入意外结束（JSON 被截断）</translation>
    </message>
    <message>
        <source>expected an object or an array</source>
        <translation>应为对象或数组</translation>
    </message>
    <message>
        <source>unexpected value</source>
        <translation>意外的值</translation>
    </message>
    <message>
        <source>a single JSON element is larger than %1 MB</source>
        <translation>单个 JSON 元素超过 %1 MB</translation>
    </message>
</context>
<context>
    <name>LoadedSession</name>
    <message>
        <source>%1 compaction: %2 → %3 tokens, %4 → %5 messages, %6 summarised, %7 offloaded, %8 ms</source>
        <translation>%1级压缩：%2 → %3 个 token，%4 → %5 条消息，摘要 %6 条，卸载 %7 条，耗时 %8 毫秒</translation>
    </message>
    <message>
        <source>Anchors changed: %1 of 5; summary by %2</source>
        <translation>锚点变化：%1/5；摘要由 %2 生成</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>%1 compacted its own context here (%2 tokens before, %3)</source>
        <translation>%1 在此处压缩了自己的上下文（压缩前 %2 个 token，%3）</translation>
    </message>
    <message>
        <source>%1 compacted its own context here</source>
        <translation>%1 在此处压缩了自己的上下文</translation>
    </message>
</context>
<context>
    <name>MessageCodec</name>
    <message>
        <source>field &apos;role&apos;: missing or not a string</source>
        <translation>字段 &apos;role&apos;：缺失或不是字符串</translation>
    </message>
    <message>
        <source>field &apos;role&apos;: unknown role &apos;%1&apos;</source>
        <translation>字段 &apos;role&apos;：未知角色 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>field &apos;content&apos;: expected a string, null or an array of parts</source>
        <translation>字段 &apos;content&apos;：应为字符串、null 或片段数组</translation>
    </message>
    <message>
        <source>field &apos;tool_calls&apos;: expected an array</source>
        <translation>字段 &apos;tool_calls&apos;：应为数组</translation>
    </message>
    <message>
        <source>field &apos;tool_calls[%1].function.name&apos;: missing</source>
        <translation>字段 &apos;tool_calls[%1].function.name&apos;：缺失</translation>
    </message>
    <message>
        <source>field &apos;tool_call_id&apos;: expected a string</source>
        <translation>字段 &apos;tool_call_id&apos;：应为字符串</translation>
    </message>
    <message>
        <source>message %1: expected an object</source>
        <translation>消息 %1：应为对象</translation>
    </message>
    <message>
        <source>message %1: %2</source>
        <translation>消息 %1：%2</translation>
    </message>
    <message>
        <source>field &apos;name&apos;: missing</source>
        <translation>字段 &apos;name&apos;：缺失</translation>
    </message>
</context>
<context>
    <name>OffloadChunkReader</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
</context>
<context>
    <name>PolicyGrid</name>
    <message>
        <source>the grid is not JSON: %1 at offset %2</source>
        <translation>网格不是 JSON：%1，位于偏移 %2</translation>
    </message>
    <message>
        <source>the grid must be a JSON object of option name to a list of values</source>
        <translation>网格必须是一个 JSON 对象，将选项名映射到值列表</translation>
    </message>
    <message>
        <source>grid key &apos;%1&apos; is not a policy option (known: %2)</source>
        <translation>网格键“%1”不是策略选项（已知选项：%2）</translation>
    </message>
    <message>
        <source>grid key &apos;%1&apos; has no values</source>
        <translation>网格键“%1”没有值</translation>
    </message>
    <message>
        <source>grid key &apos;%1&apos;: value %2 is not a number, a string or true/false</source>
        <translation>网格键“%1”：值 %2 不是数字、字符串或 true/false</translation>
    </message>
    <message>
        <source>grid key &apos;%1&apos;: value %2: %3</source>
        <translation>网格键“%1”：值 %2：%3</translation>
    </message>
    <message>
        <source>the grid makes more than %1 policies (at key &apos;%2&apos;)</source>
        <translation>网格生成的策略超过 %1 个（在键“%2”处）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a policy option</source>
        <translation>“%1”不是策略选项</translation>
    </message>
</context>
<context>
    <name>ProxyCompactor</name>
    <message>
        <source>compacted (%1): %2 to %3 tokens, %4 to %5 messages, %6 results offloaded</source>
        <translation>已压缩（%1）：令牌 %2 → %3，消息 %4 → %5，已卸载 %6 个结果</translation>
    </message>
    <message>
        <source>forwarded unchanged: %1</source>
        <translation>原样转发：%1</translation>
    </message>
    <message>
        <source>the result of call %1 does not follow its call</source>
        <translation>调用 %1 的结果没有紧跟在该调用之后</translation>
    </message>
    <message>
        <source>call %1 has no result before the next message</source>
        <translation>调用 %1 在下一条消息之前没有结果</translation>
    </message>
    <message>
        <source>call id %1 appears twice in one message</source>
        <translation>调用 ID %1 在同一条消息中出现了两次</translation>
    </message>
    <message>
        <source>call %1 has no result</source>
        <translation>调用 %1 没有结果</translation>
    </message>
    <message>
        <source>the request continues a stored response (previous_response_id): the provider holds the history</source>
        <translation>该请求延续一个已存储的响应（previous_response_id）：历史由服务提供方保存</translation>
    </message>
    <message>
        <source>extended thinking is on: its signed thinking blocks cannot be written back</source>
        <translation>已开启扩展思考：其带签名的思考块无法回写</translation>
    </message>
    <message>
        <source>the compacted view would not pair tool calls with their results: %1</source>
        <translation>压缩后的视图无法将工具调用与其结果配对：%1</translation>
    </message>
    <message>
        <source>the client&apos;s history no longer begins with what Waterline compacted before (it compacted or edited it itself): those compactions were dropped and the request was compacted afresh</source>
        <translation>客户端的历史已不再以 Waterline 之前压缩的内容开头（客户端自行压缩或编辑了历史）：这些压缩已被丢弃，该请求已重新压缩</translation>
    </message>
    <message>
        <source>the client&apos;s history does not pair tool calls with their results: %1</source>
        <translation>客户端的历史中工具调用与其结果未能配对：%1</translation>
    </message>
</context>
<context>
    <name>ProxyRecorder</name>
    <message>
        <source>Proxied %1 conversation</source>
        <translation>已代理的 %1 对话</translation>
    </message>
    <message>
        <source>cannot record the proxied traffic: %1</source>
        <translation>无法记录代理的流量：%1</translation>
    </message>
    <message>
        <source>request %1 %2 was forwarded but not recorded: %3</source>
        <translation>请求 %1 %2 已转发但未记录：%3</translation>
    </message>
    <message>
        <source>the answer was too large to record whole</source>
        <translation>响应过大，无法完整记录</translation>
    </message>
    <message>
        <source>not recorded as Waterline&apos;s compaction: the client grouped its earlier turns otherwise than they were stored, so the request&apos;s positions do not name stored messages</source>
        <translation>未记录为 Waterline 的压缩：客户端对先前轮次的分组方式与存储时不同，因此请求中的位置无法对应已存储的消息</translation>
    </message>
    <message>
        <source>cannot append to the compaction audit in %1: %2</source>
        <translation>无法追加到 %1 中的压缩审计日志：%2</translation>
    </message>
</context>
<context>
    <name>ProxyServer</name>
    <message>
        <source>the proxy listens on a loopback address only (127.0.0.1 or ::1), not %1</source>
        <translation>代理只监听回环地址（127.0.0.1 或 ::1），不能监听 %1</translation>
    </message>
    <message>
        <source>the upstream must be an http or https URL, such as https://api.anthropic.com</source>
        <translation>上游必须是 http 或 https URL，例如 https://api.anthropic.com</translation>
    </message>
    <message>
        <source>the upstream URL must not hold a user name or password</source>
        <translation>上游 URL 中不能包含用户名或密码</translation>
    </message>
    <message>
        <source>cannot listen on %1 port %2: %3</source>
        <translation>无法在 %1 的端口 %2 上监听：%3</translation>
    </message>
</context>
<context>
    <name>SessionImporter</name>
    <message>
        <source>unknown format &apos;%1&apos; (known: %2)</source>
        <translation>未知格式 &apos;%1&apos;（已知格式：%2）</translation>
    </message>
    <message>
        <source>%1: import cancelled</source>
        <translation>%1：导入已取消</translation>
    </message>
    <message>
        <source>%1: %2 messages read but %3 stored</source>
        <translation>%1：读取了 %2 条消息，但只保存了 %3 条</translation>
    </message>
    <message>
        <source>session %1 of %2: %3</source>
        <translation>第 %1 个会话（共 %2 个）：%3</translation>
    </message>
    <message>
        <source>%1 (1 of %2)</source>
        <translation>%1（第 1 个，共 %2 个）</translation>
    </message>
    <message>
        <source>%1 (%2 of %3)</source>
        <translation>%1（第 %2 个，共 %3 个）</translation>
    </message>
    <message>
        <source>%1: the stored messages are not in id order</source>
        <translation>%1：已存储的消息未按 ID 顺序排列</translation>
    </message>
</context>
<context>
    <name>SessionLoader</name>
    <message>
        <source>There is no session %1 in %2.</source>
        <translation>%2 中没有会话 %1。</translation>
    </message>
    <message>
        <source>The import of session %1 has not finished.</source>
        <translation>会话 %1 的导入尚未完成。</translation>
    </message>
</context>
<context>
    <name>TimelineToolTip</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 (%2 of the %3-token window)</source>
        <translation>%1（占 %3 个 token 窗口的 %2）</translation>
    </message>
    <message>
        <source>Full history, uncompacted</source>
        <translation>完整历史（未压缩）</translation>
    </message>
    <message>
        <source>Sent to model</source>
        <translation>发送给模型</translation>
    </message>
    <message>
        <source>Provider-reported</source>
        <translation>提供商报告</translation>
    </message>
    <message>
        <source>What-if</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>Request %1 · %2</source>
        <translation>请求 %1 · %2</translation>
    </message>
    <message>
        <source>No value at this request</source>
        <translation>此请求处没有数值</translation>
    </message>
    <message>
        <source>The what-if runs at a %1-token window; the recorded session had %2.</source>
        <translation>假设按 %1 个 token 的窗口运行；记录的会话窗口为 %2。</translation>
    </message>
    <message>
        <source>No compaction before this request</source>
        <translation>此请求之前没有压缩</translation>
    </message>
    <message>
        <source>Tier: %1 (compacted before this request)</source>
        <translation>层级：%1（在此请求之前压缩）</translation>
    </message>
    <message>
        <source>What-if compaction: %1 → %2 view tokens, %3 summarised, %4 offloaded</source>
        <translation>假设压缩：视图 %1 → %2 个 token，摘要 %3 条，卸载 %4 条</translation>
    </message>
    <message>
        <source>%1 tokens since request %2</source>
        <translation>较请求 %2 变化 %1 个 token</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>What-if: %1 compaction before request %2</source>
        <translation>假设：请求 %2 之前的%1级压缩</translation>
    </message>
    <message>
        <source>View: %1 → %2 tokens, %3 messages summarised, %4 results offloaded</source>
        <translation>视图：%1 → %2 个 token，摘要 %3 条消息，卸载 %4 个结果</translation>
    </message>
    <message>
        <source>Would send: %1</source>
        <translation>将发送：%1</translation>
    </message>
    <message>
        <source>Recorded: sent %1</source>
        <translation>已记录：发送了 %1</translation>
    </message>
    <message>
        <source>%1 compaction before request %2</source>
        <translation>请求 %2 之前的%1级压缩</translation>
    </message>
    <message>
        <source>Sent: %1</source>
        <translation>已发送：%1</translation>
    </message>
    <message>
        <source>Full history: %1</source>
        <translation>完整历史：%1</translation>
    </message>
    <message>
        <source>Request %1</source>
        <translation>请求 %1</translation>
    </message>
    <message>
        <source>Provider-reported: %1</source>
        <translation>提供商报告：%1</translation>
    </message>
    <message>
        <source>%1 runs above the chart at request %2</source>
        <translation>%1在请求 %2 处超出图表上沿</translation>
    </message>
    <message>
        <source>%1 runs above the chart from request %2 to %3</source>
        <translation>%1在请求 %2 到 %3 之间超出图表上沿</translation>
    </message>
    <message>
        <source>Highest: %1 at request %2, %3 above the top (%4)</source>
        <translation>最高：请求 %2 处为 %1，比上沿（%4）高出 %3</translation>
    </message>
    <message>
        <source>%1 up to %2 at request %3 (%4 above the top)</source>
        <translation>%1在请求 %3 处最高达 %2（高出上沿 %4）</translation>
    </message>
    <message>
        <source>Clipped at %1: %2</source>
        <translation>在 %1 处截断：%2</translation>
    </message>
    <message>
        <source>%1 threshold: %2 of the window</source>
        <translation>%1阈值：窗口的 %2</translation>
    </message>
    <message>
        <source>%1 threshold: %2 of the %3-token window (%4)</source>
        <translation>%1阈值：%3 个 token 窗口的 %2（%4）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>% of %1</source>
        <translation>占 %1 的 %</translation>
    </message>
    <message>
        <source>Context used (%)</source>
        <translation>已用上下文（%）</translation>
    </message>
    <message>
        <source>No context window is set: every line is in tokens.</source>
        <translation>未设置上下文窗口：所有曲线均以 token 数表示。</translation>
    </message>
    <message>
        <source>In tokens; the thresholds are those of the what-if&apos;s %1-token window (the session&apos;s is %2).</source>
        <translation>以 token 数表示；阈值取自假设的 %1 个 token 窗口（会话的窗口为 %2）。</translation>
    </message>
    <message>
        <source>In tokens; the thresholds are those of the %1-token window.</source>
        <translation>以 token 数表示；阈值取自 %1 个 token 的窗口。</translation>
    </message>
    <message>
        <source>Every line as a share of the what-if&apos;s %1-token window; the recorded lines are rescaled from the session&apos;s %2.</source>
        <translation>所有曲线均表示为假设的 %1 个 token 窗口的占比；已记录的曲线由会话的 %2 窗口换算而来。</translation>
    </message>
    <message>
        <source>Every line as a share of the %1-token window.</source>
        <translation>所有曲线均表示为 %1 个 token 窗口的占比。</translation>
    </message>
    <message numerus="yes">
        <source>%n fact(s) this request used were lost from its view under this policy</source>
        <translation>
            <numerusform>此策略下，该请求用到的 %n 个事实已从其视图中丢失</numerusform>
        </translation>
    </message>
    <message>
        <source>Request %1 · what-if composition</source>
        <translation>请求 %1 · 假设推演构成</translation>
    </message>
    <message>
        <source>Request %1 · composition as sent</source>
        <translation>请求 %1 · 实际发送的构成</translation>
    </message>
    <message>
        <source>%1: %2 (%3 of the window)</source>
        <translation>%1：%2（占窗口的 %3）</translation>
    </message>
    <message>
        <source>Used: %1 (%2 of the window)</source>
        <translation>已用：%1（占窗口的 %2）</translation>
    </message>
    <message>
        <source>Used: %1</source>
        <translation>已用：%1</translation>
    </message>
</context>
<context>
    <name>TranscriptImport</name>
    <message>
        <source>Claude Code session</source>
        <translation>Claude Code 会话</translation>
    </message>
    <message>
        <source>OpenAI Codex CLI rollout</source>
        <translation>OpenAI Codex CLI 运行记录</translation>
    </message>
    <message>
        <source>OpenAI Chat messages</source>
        <translation>OpenAI Chat 消息</translation>
    </message>
    <message>
        <source>OpenHands events</source>
        <translation>OpenHands 事件</translation>
    </message>
    <message numerus="yes">
        <source>%1: run %2 does not exist; the file holds %n run(s)</source>
        <translation>
            <numerusform>%1：运行 %2 不存在；该文件共有 %n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>SWE-agent trajectory</source>
        <translation>SWE-agent 轨迹</translation>
    </message>
    <message>
        <source>Waterline session export</source>
        <translation>Waterline 会话导出</translation>
    </message>
    <message>
        <source>missing or not a string (%1)</source>
        <translation>缺失或不是字符串（%1）</translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation>应为对象，实际为 %1</translation>
    </message>
    <message>
        <source>unknown record kind &apos;%1&apos;</source>
        <translation>未知的记录类型 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>expected an array or a string, got %1</source>
        <translation>应为数组或字符串，实际为 %1</translation>
    </message>
    <message>
        <source>missing or not a string</source>
        <translation>缺失或不是字符串</translation>
    </message>
    <message>
        <source>expected an array, got %1</source>
        <translation>应为数组，实际为 %1</translation>
    </message>
    <message>
        <source>unknown role &apos;%1&apos;</source>
        <translation>未知角色 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>unknown response item &apos;%1&apos;</source>
        <translation>未知的响应项 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: field &apos;%2&apos;: %3</source>
        <translation>%1：字段 &apos;%2&apos;：%3</translation>
    </message>
    <message>
        <source>%1:%2 (byte %3): %4</source>
        <translation>%1:%2（字节 %3）：%4</translation>
    </message>
    <message>
        <source>... further problems not listed</source>
        <translation>... 其余问题不再列出</translation>
    </message>
    <message>
        <source>call to &apos;%1&apos; has no id and cannot be answered</source>
        <translation>对 &apos;%1&apos; 的调用没有 ID，无法回应</translation>
    </message>
    <message>
        <source>call id &apos;%1&apos; is used again before its result</source>
        <translation>调用 ID &apos;%1&apos; 在其结果返回之前被重复使用</translation>
    </message>
    <message>
        <source>call id &apos;%1&apos; is reused after it was answered</source>
        <translation>调用 ID &apos;%1&apos; 在已得到回应后被重复使用</translation>
    </message>
    <message>
        <source>second result for call &apos;%1&apos;</source>
        <translation>调用 &apos;%1&apos; 的第二个结果</translation>
    </message>
    <message>
        <source>result for unknown call &apos;%1&apos;</source>
        <translation>未知调用 &apos;%1&apos; 的结果</translation>
    </message>
    <message>
        <source>%1: message %2 could not be stored: %3</source>
        <translation>%1：消息 %2 无法保存：%3</translation>
    </message>
    <message>
        <source>call &apos;%1&apos; has no result</source>
        <translation>调用 &apos;%1&apos; 没有结果</translation>
    </message>
    <message>
        <source>%1: import cancelled</source>
        <translation>%1：导入已取消</translation>
    </message>
    <message>
        <source>binary data (NUL byte)</source>
        <translation>二进制数据（NUL 字节）</translation>
    </message>
    <message>
        <source>invalid JSON at column %1: %2</source>
        <translation>第 %1 列的 JSON 无效：%2</translation>
    </message>
    <message>
        <source>expected a JSON object</source>
        <translation>应为 JSON 对象</translation>
    </message>
    <message>
        <source>%1 (byte %2)</source>
        <translation>%1（字节 %2）</translation>
    </message>
    <message>
        <source>invalid JSON: %1</source>
        <translation>无效的 JSON：%1</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>extra JSON value after the document</source>
        <translation>文档之后还有多余的 JSON 值</translation>
    </message>
    <message>
        <source>expected an array of messages</source>
        <translation>应为消息数组</translation>
    </message>
    <message>
        <source>expected a JSON array or object of chat messages</source>
        <translation>应为聊天消息的 JSON 数组或对象</translation>
    </message>
    <message>
        <source>neither an action nor an observation</source>
        <translation>既不是动作也不是观察结果</translation>
    </message>
    <message>
        <source>error observation without a call, kept as a user message</source>
        <translation>没有对应调用的错误观察结果，已作为用户消息保留</translation>
    </message>
    <message>
        <source>extra JSON value after the event array</source>
        <translation>事件数组之后还有多余的 JSON 值</translation>
    </message>
    <message>
        <source>run %1: expected an object</source>
        <translation>运行 %1：应为对象</translation>
    </message>
    <message>
        <source>expected an array of events</source>
        <translation>应为事件数组</translation>
    </message>
    <message>
        <source>missing or unknown</source>
        <translation>缺失或未知</translation>
    </message>
    <message>
        <source>unknown event kind &apos;%1&apos;</source>
        <translation>未知的事件类型 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>expected OpenHands events (a JSON array, JSON lines of runs, or events.jsonl)</source>
        <translation>应为 OpenHands 事件（JSON 数组、每行一个运行的 JSON Lines，或 events.jsonl）</translation>
    </message>
    <message>
        <source>%1: run index %2 is not valid</source>
        <translation>%1：运行索引 %2 无效</translation>
    </message>
    <message>
        <source>%1: field &apos;history&apos;: missing in run %2</source>
        <translation>%1：运行 %2 中缺少字段 &apos;history&apos;</translation>
    </message>
    <message>
        <source>extra JSON value after the trajectory</source>
        <translation>轨迹之后还有多余的 JSON 值</translation>
    </message>
    <message>
        <source>%1: expected a JSON object with a &apos;history&apos; array</source>
        <translation>%1：应为包含 &apos;history&apos; 数组的 JSON 对象</translation>
    </message>
    <message>
        <source>expected an array</source>
        <translation>应为数组</translation>
    </message>
    <message>
        <source>expected a string, got %1</source>
        <translation>应为字符串，实际为 %1</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>a tool message without a call id</source>
        <translation>工具消息没有调用 ID</translation>
    </message>
    <message>
        <source>%1: field &apos;history&apos;: missing; not a SWE-agent trajectory</source>
        <translation>%1：缺少字段 &apos;history&apos;；不是 SWE-agent 轨迹</translation>
    </message>
    <message>
        <source>%1: is a folder, not a transcript file</source>
        <translation>%1：是文件夹，不是对话记录文件</translation>
    </message>
    <message>
        <source>%1: cannot open: %2</source>
        <translation>%1：无法打开：%2</translation>
    </message>
    <message>
        <source>%1: the file is empty</source>
        <translation>%1：文件为空</translation>
    </message>
    <message>
        <source>%1: binary file, not a transcript</source>
        <translation>%1：二进制文件，不是对话记录</translation>
    </message>
    <message>
        <source>%1: not UTF-8 text (binary file?), not a transcript</source>
        <translation>%1：不是 UTF-8 文本（二进制文件？），不是对话记录</translation>
    </message>
    <message>
        <source>%1: unknown transcript format (supported: %2)</source>
        <translation>%1：未知的对话记录格式（支持：%2）</translation>
    </message>
    <message>
        <source>unknown format &apos;%1&apos; (known: %2)</source>
        <translation>未知格式 &apos;%1&apos;（已知格式：%2）</translation>
    </message>
    <message>
        <source>%1: not readable</source>
        <translation>%1：不可读</translation>
    </message>
    <message>
        <source>%1: binary file (NUL byte at offset %2), not a transcript</source>
        <translation>%1：二进制文件（偏移量 %2 处有 NUL 字节），不是对话记录</translation>
    </message>
    <message>
        <source>%1: no conversation found for format &apos;%2&apos;</source>
        <translation>%1：按格式 &apos;%2&apos; 未找到对话</translation>
    </message>
    <message>
        <source>%1: no conversation found; %2 record(s) skipped, the first: %3</source>
        <translation>%1：未找到对话；跳过了 %2 条记录，第一条：%3</translation>
    </message>
    <message>
        <source>%1: import stopped</source>
        <translation>%1：导入已停止</translation>
    </message>
    <message>
        <source>expected a &quot;%1&quot; header line</source>
        <translation>应为 &quot;%1&quot; 头部行</translation>
    </message>
    <message>
        <source>unknown line type &apos;%1&apos;</source>
        <translation>未知的行类型 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>the file has no end line: it was cut off</source>
        <translation>文件没有结束行：内容被截断了</translation>
    </message>
    <message>
        <source>the file starts mid-session: the parent &apos;%1&apos; of its first record is not in it</source>
        <translation>文件从会话中途开始：其第一条记录的父记录“%1”不在文件中</translation>
    </message>
    <message numerus="yes">
        <source>%n record(s) of the main conversation in this sub-agent file were left out</source>
        <translation>
            <numerusform>此子代理文件中有 %n 条主对话记录被略去</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sub-agent (sidechain) record(s) were left out: the main model never saw them</source>
        <translation>
            <numerusform>有 %n 条子代理（旁支）记录被略去：主模型从未看到它们</numerusform>
        </translation>
    </message>
    <message>
        <source>a compaction item with no summary</source>
        <translation>一个没有摘要的压缩项</translation>
    </message>
    <message>
        <source>%1: field %2; read as not reported</source>
        <translation>%1：字段 %2；按未报告处理</translation>
    </message>
    <message>
        <source>expected a session object with &apos;messages&apos; like the first element</source>
        <translation>应为与第一个元素一样带有“messages”的会话对象</translation>
    </message>
    <message>
        <source>%1: session index %2 is not valid</source>
        <translation>%1：会话序号 %2 无效</translation>
    </message>
    <message numerus="yes">
        <source>%1: session %2 does not exist; the file holds %n session(s)</source>
        <translation>
            <numerusform>%1：会话 %2 不存在；该文件包含 %n 个会话</numerusform>
        </translation>
    </message>
    <message>
        <source>events carry no tool call ids: actions and observations are paired by position</source>
        <translation>事件不带工具调用 ID：动作与观察按位置配对</translation>
    </message>
    <message>
        <source>expected an event or an [action, observation] pair</source>
        <translation>应为一个事件或一对 [动作, 观察]</translation>
    </message>
    <message>
        <source>%1: no event files (*.json) in the folder</source>
        <translation>%1：文件夹中没有事件文件（*.json）</translation>
    </message>
    <message>
        <source>file is larger than %1 bytes; this is not one event</source>
        <translation>文件大于 %1 字节；这不是单个事件</translation>
    </message>
    <message>
        <source>cannot open: %1</source>
        <translation>无法打开：%1</translation>
    </message>
    <message>
        <source>%1: is a folder, not a transcript file (nor a folder of event files)</source>
        <translation>%1：是文件夹，不是对话记录文件（也不是事件文件的文件夹）</translation>
    </message>
    <message>
        <source>%1: not an export format this version reads (1 to %2)</source>
        <translation>%1：此版本无法读取该导出格式（支持 1 到 %2）</translation>
    </message>
    <message>
        <source>a compaction summary without its compact_boundary: read as a compaction here</source>
        <translation>压缩摘要缺少其 compact_boundary：此处按压缩读取</translation>
    </message>
    <message>
        <source>the compaction summary&apos;s parent &apos;%1&apos; is not its compact_boundary</source>
        <translation>压缩摘要的父记录“%1”不是其 compact_boundary</translation>
    </message>
    <message>
        <source>a compaction boundary without %1 (got %2)</source>
        <translation>压缩边界缺少 %1（实际为 %2）</translation>
    </message>
    <message>
        <source>the compaction&apos;s logical parent &apos;%1&apos; is not earlier in the file</source>
        <translation>压缩的逻辑父记录“%1”不在文件中更靠前的位置</translation>
    </message>
    <message>
        <source>%1 of %2 cleared tool ids of a microcompaction could not be read</source>
        <translation>微压缩清除的 %2 个工具 ID 中有 %1 个无法读取</translation>
    </message>
    <message>
        <source>%1: model_context_window %2 is not a plausible window (%3 to %4 tokens): not used</source>
        <translation>%1：model_context_window %2 不是合理的窗口大小（%3 到 %4 个 token）：未采用</translation>
    </message>
    <message>
        <source>events carry no source: the first message is read as the user&apos;s, every other action as the agent&apos;s</source>
        <translation>事件未标明来源：第一条消息视为用户的，其余所有动作视为智能体的</translation>
    </message>
</context>
<context>
    <name>WireConversation</name>
    <message>
        <source>field &apos;%1&apos; is neither text nor a list of parts</source>
        <translation>字段“%1”既不是文本也不是部件列表</translation>
    </message>
    <message>
        <source>a part of &apos;%1&apos; is not an object</source>
        <translation>“%1”的某个部件不是对象</translation>
    </message>
    <message>
        <source>field &apos;model&apos; is not text</source>
        <translation>字段“model”不是文本</translation>
    </message>
    <message>
        <source>field &apos;tools&apos; is not a list</source>
        <translation>字段“tools”不是列表</translation>
    </message>
    <message>
        <source>field &apos;messages&apos; is missing or not a list</source>
        <translation>字段“messages”缺失或不是列表</translation>
    </message>
    <message>
        <source>a message is not an object</source>
        <translation>某条消息不是对象</translation>
    </message>
    <message>
        <source>unknown message role &apos;%1&apos;</source>
        <translation>未知的消息角色“%1”</translation>
    </message>
    <message>
        <source>a content block is not an object</source>
        <translation>某个内容块不是对象</translation>
    </message>
    <message>
        <source>a tool result without &apos;tool_use_id&apos;</source>
        <translation>工具结果缺少“tool_use_id”</translation>
    </message>
    <message>
        <source>a tool call without &apos;id&apos;</source>
        <translation>工具调用缺少“id”</translation>
    </message>
    <message>
        <source>field &apos;tool_calls&apos; is not a list</source>
        <translation>字段“tool_calls”不是列表</translation>
    </message>
    <message>
        <source>a tool message without &apos;tool_call_id&apos;</source>
        <translation>工具消息缺少“tool_call_id”</translation>
    </message>
    <message>
        <source>field &apos;instructions&apos; is not text</source>
        <translation>字段“instructions”不是文本</translation>
    </message>
    <message>
        <source>field &apos;input&apos; is missing or neither text nor a list</source>
        <translation>字段“input”缺失，或既不是文本也不是列表</translation>
    </message>
    <message>
        <source>an input item is not an object</source>
        <translation>某个输入项不是对象</translation>
    </message>
    <message>
        <source>a tool call without &apos;call_id&apos;</source>
        <translation>工具调用缺少“call_id”</translation>
    </message>
    <message>
        <source>the arguments of call %1 are not text</source>
        <translation>调用 %1 的参数不是文本</translation>
    </message>
    <message>
        <source>a tool output without &apos;call_id&apos;</source>
        <translation>工具输出缺少“call_id”</translation>
    </message>
    <message>
        <source>not a conversation request</source>
        <translation>不是对话请求</translation>
    </message>
    <message>
        <source>the request body is larger than %1 MB</source>
        <translation>请求体大于 %1 MB</translation>
    </message>
    <message>
        <source>the request body is not JSON: %1 at byte %2</source>
        <translation>请求体不是 JSON：%1，位于第 %2 字节</translation>
    </message>
    <message>
        <source>the request body is not a JSON object</source>
        <translation>请求体不是 JSON 对象</translation>
    </message>
    <message>
        <source>the stream ended before its final event</source>
        <translation>流在最终事件之前就结束了</translation>
    </message>
    <message>
        <source>the response body is not a JSON object</source>
        <translation>响应体不是 JSON 对象</translation>
    </message>
    <message>
        <source>the response ended early</source>
        <translation>响应提前结束</translation>
    </message>
    <message>
        <source>the response body is larger than %1 MB</source>
        <translation>响应体大于 %1 MB</translation>
    </message>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP 状态 %1</translation>
    </message>
    <message>
        <source>a tool result in a message of role %1</source>
        <translation>角色为 %1 的消息中出现了工具结果</translation>
    </message>
    <message>
        <source>a tool call in a message of role %1</source>
        <translation>角色为 %1 的消息中出现了工具调用</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>could not write the screenshot to %1</source>
        <translation>无法将截图写入 %1</translation>
    </message>
    <message>
        <source>Waterline: run LLM agents and see how their context is compacted.</source>
        <translation>Waterline：运行 LLM 智能体，查看其上下文如何被压缩。</translation>
    </message>
    <message>
        <source>Use the session database at &lt;path&gt;.</source>
        <translation>使用位于 &lt;path&gt; 的会话数据库。</translation>
    </message>
    <message>
        <source>Start a new session in the workspace folder &lt;dir&gt;.</source>
        <translation>在工作区文件夹 &lt;dir&gt; 中开始新会话。</translation>
    </message>
    <message>
        <source>Open the session with this &lt;id&gt;.</source>
        <translation>打开 ID 为 &lt;id&gt; 的会话。</translation>
    </message>
    <message>
        <source>Open the bundled demo session (no network needed).</source>
        <translation>打开内置的演示会话（无需网络）。</translation>
    </message>
    <message>
        <source>Render the main window after start-up to the PNG &lt;path&gt; and exit.</source>
        <translation>启动后将主窗口渲染为 PNG 文件 &lt;path&gt; 并退出。</translation>
    </message>
    <message>
        <source>Bring the dock &lt;name&gt; (e.g. Anchors) to the front; useful with --screenshot.</source>
        <translation>将停靠面板 &lt;name&gt;（如 Anchors）置于最前；配合 --screenshot 使用。</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; is not a folder</source>
        <translation>工作区 &apos;%1&apos; 不是文件夹</translation>
    </message>
    <message>
        <source>there is no dock named &apos;%1&apos;</source>
        <translation>没有名为 &apos;%1&apos; 的停靠面板</translation>
    </message>
    <message>
        <source>The session database %1 could not be opened:
%2

Nothing was changed in it. Start Waterline with --db to use another file.</source>
        <translation>无法打开会话数据库 %1：
%2

其中的内容未作任何改动。可使用 --db 启动 Waterline 以改用其他文件。</translation>
    </message>
    <message>
        <source>Waterline</source>
        <translation>Waterline</translation>
    </message>
    <message>
        <source>not starting a session in %1: it is the whole file system or your home folder</source>
        <translation>不在 %1 中启动会话：它是整个文件系统或你的主文件夹</translation>
    </message>
    <message>
        <source>Open Compare Policies on the session once it is shown and run its default sweep; with --screenshot, render that window once the sweep is done.</source>
        <translation>会话显示后打开“比较策略”并运行其默认扫描；配合 --screenshot，在扫描完成后渲染该窗口。</translation>
    </message>
    <message>
        <source>The session database %1 could not be opened: %2</source>
        <translation>无法打开会话数据库 %1：%2</translation>
    </message>
</context>
<context>
    <name>waterline-cli</name>
    <message>
        <source>Usage: waterline-cli COMMAND [OPTIONS]

Commands:
</source>
        <translation>用法：waterline-cli 命令 [选项]

命令：
</translation>
    </message>
    <message>
        <source>
Run &apos;waterline-cli COMMAND --help&apos; for a command&apos;s options.</source>
        <translation>
运行 &apos;waterline-cli 命令 --help&apos; 查看该命令的选项。</translation>
    </message>
    <message>
        <source>unknown command &apos;%1&apos;</source>
        <translation>未知命令 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>Decode a JSON array of OpenAI chat messages and print the message count and token estimate.</source>
        <translation>解码一个 OpenAI 聊天消息的 JSON 数组，输出消息数量和 token 估算值。</translation>
    </message>
    <message>
        <source>JSON file holding an array of messages.</source>
        <translation>包含消息数组的 JSON 文件。</translation>
    </message>
    <message>
        <source>estimate takes exactly one file</source>
        <translation>estimate 只接受一个文件</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1: offset %2: %3</source>
        <translation>%1：偏移量 %2：%3</translation>
    </message>
    <message>
        <source>%1: field &apos;messages&apos;: expected an array of messages</source>
        <translation>%1：字段 &apos;messages&apos;：应为消息数组</translation>
    </message>
    <message>
        <source>Token estimate of a JSON messages file</source>
        <translation>估算 JSON 消息文件的 token 数</translation>
    </message>
    <message>
        <source>Import a transcript into a new stored session</source>
        <translation>将对话记录导入为一个新的已存储会话</translation>
    </message>
    <message>
        <source>Write a stored session as Waterline JSONL</source>
        <translation>将已存储的会话写为 Waterline JSONL</translation>
    </message>
    <message>
        <source>Replay a session under a compaction policy, no model needed</source>
        <translation>按某个压缩策略重放会话，无需模型</translation>
    </message>
    <message>
        <source>Run the agent headless on a prompt</source>
        <translation>以无界面方式按提示词运行智能体</translation>
    </message>
    <message>
        <source>Write a stored session as Waterline JSONL (the format `import` reads back).</source>
        <translation>将已存储的会话写为 Waterline JSONL（即 `import` 可读回的格式）。</translation>
    </message>
    <message>
        <source>Id of the session.</source>
        <translation>会话 ID。</translation>
    </message>
    <message>
        <source>Session database.</source>
        <translation>会话数据库。</translation>
    </message>
    <message>
        <source>Output file (default: standard output).</source>
        <translation>输出文件（默认：标准输出）。</translation>
    </message>
    <message>
        <source>export takes exactly one session id</source>
        <translation>export 只接受一个会话 ID</translation>
    </message>
    <message>
        <source>--db is required</source>
        <translation>必须提供 --db</translation>
    </message>
    <message>
        <source>cannot create a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>cannot write to standard output</source>
        <translation>无法写入标准输出</translation>
    </message>
    <message>
        <source>Import a transcript (another agent&apos;s session, or a Waterline export) into a new session of the database and print the new session&apos;s id.</source>
        <translation>将对话记录（其他智能体的会话，或 Waterline 导出文件）导入数据库中的新会话，并输出新会话的 ID。</translation>
    </message>
    <message>
        <source>Transcript format: auto (default), %1.</source>
        <translation>对话记录格式：auto（默认）、%1。</translation>
    </message>
    <message>
        <source>Session database (created when missing).</source>
        <translation>会话数据库（不存在时会自动创建）。</translation>
    </message>
    <message>
        <source>Session title (default: from the transcript).</source>
        <translation>会话标题（默认：取自对话记录）。</translation>
    </message>
    <message>
        <source>Re-run Waterline&apos;s compaction over the session (extractive summaries, offload files in the workspace) and store what it did.</source>
        <translation>在会话上重新运行 Waterline 的压缩（抽取式摘要，卸载文件写入工作区），并保存其结果。</translation>
    </message>
    <message>
        <source>With --replay: the context window in tokens (default 128000).</source>
        <translation>配合 --replay：上下文窗口大小，单位为 token（默认 128000）。</translation>
    </message>
    <message>
        <source>import takes exactly one file</source>
        <translation>import 只接受一个文件</translation>
    </message>
    <message>
        <source>--format: unknown format &apos;%1&apos; (known: auto, %2)</source>
        <translation>--format：未知格式 &apos;%1&apos;（已知格式：auto、%2）</translation>
    </message>
    <message>
        <source>--window needs --replay</source>
        <translation>--window 需要配合 --replay 使用</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：没有这个文件</translation>
    </message>
    <message>
        <source>--workspace: %1 is not a folder</source>
        <translation>--workspace：%1 不是文件夹</translation>
    </message>
    <message>
        <source>warning: %1: %2 record(s) skipped; the first: %3</source>
        <translation>警告：%1：跳过了 %2 条记录；第一条：%3</translation>
    </message>
    <message>
        <source>note: %1: %2 structural issue(s) kept as they were (calls without results, results without calls)</source>
        <translation>注意：%1：%2 个结构问题按原样保留（没有结果的调用、没有调用的结果）</translation>
    </message>
    <message>
        <source>[tool] %1 %2</source>
        <translation>[tool] %1 %2</translation>
    </message>
    <message>
        <source>[tool] %1 failed after %2 ms: %3</source>
        <translation>[tool] %1 在 %2 毫秒后失败：%3</translation>
    </message>
    <message>
        <source>[tool] %1 done in %2 ms (exit %3, %4 bytes)</source>
        <translation>[tool] %1 完成，耗时 %2 毫秒（退出码 %3，%4 字节）</translation>
    </message>
    <message>
        <source>[approval] denied %1: a headless run cannot ask; pass --auto-approve to allow write and execute calls</source>
        <translation>[approval] 已拒绝 %1：无界面运行无法询问；传入 --auto-approve 以允许写入和执行类调用</translation>
    </message>
    <message>
        <source>[compaction] %1: summarising %2 messages…</source>
        <translation>[compaction] %1：正在摘要 %2 条消息…</translation>
    </message>
    <message>
        <source>[compaction] %1: %2 -&gt; %3 tokens, %4 -&gt; %5 messages, %6 offloaded</source>
        <translation>[compaction] %1：%2 -&gt; %3 个 token，%4 -&gt; %5 条消息，卸载 %6 条</translation>
    </message>
    <message>
        <source>, summary by %1</source>
        <translation>，摘要由 %1 生成</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> （%1）</translation>
    </message>
    <message>
        <source>[retry] attempt %1 in %2 ms: %3</source>
        <translation>[retry] 第 %1 次尝试，%2 毫秒后进行：%3</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>unknown profile &quot;%1&quot; (known: %2, and the session&apos;s own)</source>
        <translation>未知的配置“%1”（已知：%2，以及会话自己的配置）</translation>
    </message>
    <message>
        <source>Run the agent loop headless in a workspace: stream the answer and the tool activity to stdout.
Exit code 0 on a finished answer, 1 on a failure, 2 on a usage error.</source>
        <translation>以无界面方式在工作区中运行智能体循环：将回答和工具活动以流式输出到标准输出。
回答完成时退出码为 0，失败时为 1，用法错误时为 2。</translation>
    </message>
    <message>
        <source>Session database (created if missing).</source>
        <translation>会话数据库（不存在时会自动创建）。</translation>
    </message>
    <message>
        <source>path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Folder the agent works in.</source>
        <translation>智能体工作的文件夹。</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>The user&apos;s prompt.</source>
        <translation>用户的提示词。</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Provider profile: local, or a saved profile name.</source>
        <translation>提供商配置：local，或已保存的配置名称。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Protocol: openai-chat or anthropic.</source>
        <translation>协议：openai-chat 或 anthropic。</translation>
    </message>
    <message>
        <source>protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Provider base URL.</source>
        <translation>提供商基础 URL。</translation>
    </message>
    <message>
        <source>url</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Model name.</source>
        <translation>模型名称。</translation>
    </message>
    <message>
        <source>Model that writes compaction summaries (same provider).</source>
        <translation>编写压缩摘要的模型（同一提供商）。</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Allow write and execute tool calls.</source>
        <translation>允许写入和执行类工具调用。</translation>
    </message>
    <message>
        <source>Context window in tokens.</source>
        <translation>上下文窗口大小，单位为 token。</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>LLM requests before giving up (default 100).</source>
        <translation>放弃前最多发起的 LLM 请求数（默认 100）。</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>unexpected argument &quot;%1&quot;</source>
        <translation>意外的参数 &quot;%1&quot;</translation>
    </message>
    <message>
        <source>--prompt is required and must not be empty</source>
        <translation>必须提供 --prompt，且不能为空</translation>
    </message>
    <message>
        <source>--profile and --provider exclude each other</source>
        <translation>--profile 与 --provider 不能同时使用</translation>
    </message>
    <message>
        <source>--workspace is required for a new session</source>
        <translation>新会话必须提供 --workspace</translation>
    </message>
    <message>
        <source>the workspace %1 is not a folder</source>
        <translation>工作区 %1 不是文件夹</translation>
    </message>
    <message>
        <source>cannot open the database %1: %2</source>
        <translation>无法打开数据库 %1：%2</translation>
    </message>
    <message>
        <source>session %1 works in %2, not in %3</source>
        <translation>会话 %1 的工作区是 %2，而不是 %3</translation>
    </message>
    <message>
        <source>unknown provider &quot;%1&quot; (expected openai-chat or anthropic)</source>
        <translation>未知提供商 &quot;%1&quot;（应为 openai-chat 或 anthropic）</translation>
    </message>
    <message>
        <source>--provider needs --model</source>
        <translation>--provider 需要配合 --model 使用</translation>
    </message>
    <message>
        <source>the session&apos;s provider profile is unusable: %1</source>
        <translation>该会话的提供商配置不可用：%1</translation>
    </message>
    <message>
        <source>--base-url &quot;%1&quot; is not an http(s) URL</source>
        <translation>--base-url &quot;%1&quot; 不是 http(s) URL</translation>
    </message>
    <message>
        <source>no model: pass --model</source>
        <translation>没有模型：请传入 --model</translation>
    </message>
    <message>
        <source>the session&apos;s compaction policy is invalid: %1</source>
        <translation>该会话的压缩策略无效：%1</translation>
    </message>
    <message>
        <source>the prompt could not be submitted</source>
        <translation>无法提交提示词</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a fraction of the window in (0, 1]</source>
        <translation>%1：&apos;%2&apos; 不是 (0, 1] 范围内的窗口比例</translation>
    </message>
    <message>
        <source>requests %1, summary calls %2, emergencies %3, peak ratio %4, tokens sent %5</source>
        <translation>请求 %1 个，摘要调用 %2 次，紧急压缩 %3 次，峰值占用率 %4，发送 token 数 %5</translation>
    </message>
    <message>
        <source>%1: no such session database</source>
        <translation>%1：没有这个会话数据库</translation>
    </message>
    <message>
        <source>Replay a recorded session under a compaction policy, with no model and no network, and print what each request would have sent.
FILE_OR_SESSION is a transcript file (any format `import` reads, read in memory) or, with --db, the id of a stored session (its saved policy is the starting point).</source>
        <translation>在不使用模型、不联网的情况下，按某个压缩策略重放已记录的会话，并输出每个请求本应发送的内容。
FILE_OR_SESSION 为对话记录文件（`import` 可读取的任何格式，在内存中读取），或者配合 --db 使用时为已存储会话的 ID（以其保存的策略为起点）。</translation>
    </message>
    <message>
        <source>Transcript file, or session id with --db.</source>
        <translation>对话记录文件，或配合 --db 使用时的会话 ID。</translation>
    </message>
    <message>
        <source>Session database holding the session.</source>
        <translation>包含该会话的会话数据库。</translation>
    </message>
    <message>
        <source>Warn threshold, a fraction of the window (default 0.60).</source>
        <translation>预警阈值，占窗口的比例（默认 0.60）。</translation>
    </message>
    <message>
        <source>Soft threshold (default 0.70).</source>
        <translation>轻度压缩阈值（默认 0.70）。</translation>
    </message>
    <message>
        <source>Full threshold (default 0.80).</source>
        <translation>完全压缩阈值（默认 0.80）。</translation>
    </message>
    <message>
        <source>Emergency threshold (default 0.95).</source>
        <translation>紧急阈值（默认 0.95）。</translation>
    </message>
    <message>
        <source>Messages always kept at the end of the view (default 6).</source>
        <translation>视图末尾始终保留的消息数（默认 6）。</translation>
    </message>
    <message>
        <source>Tool results larger than this are offloaded at compaction (gate 2, default 4000).</source>
        <translation>大于此值的工具结果会在压缩时卸载（关口 2，默认 4000）。</translation>
    </message>
    <message>
        <source>How new summaries are made: extractive (default), or size:TOKENS for a fixed size (&apos;size&apos; alone: the mean of the source&apos;s own summaries, else 600).</source>
        <translation>新摘要的生成方式：extractive（默认，抽取式），或 size:TOKENS 表示固定大小（仅写 &apos;size&apos;：取来源自身摘要的平均值，否则为 600）。</translation>
    </message>
    <message>
        <source>Count tool schemas in the ratio: on (default) or off.</source>
        <translation>将工具 schema 计入占用比例：on（默认）或 off。</translation>
    </message>
    <message>
        <source>Write DIR/&lt;index&gt;.json per request: the view as OpenAI chat messages.</source>
        <translation>为每个请求写入 DIR/&lt;index&gt;.json：以 OpenAI 聊天消息表示的视图。</translation>
    </message>
    <message>
        <source>Print one JSON object {&quot;requests&quot;: [...], &quot;totals&quot;: {...}}.</source>
        <translation>输出一个 JSON 对象 {&quot;requests&quot;: [...], &quot;totals&quot;: {...}}。</translation>
    </message>
    <message>
        <source>simulate takes no positional arguments (give --input)</source>
        <translation>simulate 不接受位置参数（请使用 --input）</translation>
    </message>
    <message>
        <source>--input is required</source>
        <translation>必须提供 --input</translation>
    </message>
    <message>
        <source>--summary: &apos;%1&apos; is not &apos;extractive&apos; or &apos;size:TOKENS&apos;</source>
        <translation>--summary：&apos;%1&apos; 既不是 &apos;extractive&apos; 也不是 &apos;size:TOKENS&apos;</translation>
    </message>
    <message>
        <source>%1: no such file (a session id needs --db PATH)</source>
        <translation>%1：没有这个文件（会话 ID 需要配合 --db PATH 使用）</translation>
    </message>
    <message>
        <source>--%1: %2 is below the %3 threshold %4 (need warn &lt;= soft &lt;= full &lt;= emergency)</source>
        <translation>--%1：%2 低于 %3 阈值 %4（需要满足 warn &lt;= soft &lt;= full &lt;= emergency）</translation>
    </message>
    <message>
        <source>--%1: %2 is above the %3 threshold %4 (need warn &lt;= soft &lt;= full &lt;= emergency)</source>
        <translation>--%1：%2 高于 %3 阈值 %4（需要满足 warn &lt;= soft &lt;= full &lt;= emergency）</translation>
    </message>
    <message>
        <source>--dump-views: cannot create the folder %1</source>
        <translation>--dump-views：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Commands run without network access.</source>
        <translation>命令在无网络访问的情况下运行。</translation>
    </message>
    <message>
        <source>Run commands without a sandbox where bubblewrap is unavailable.</source>
        <translation>在 bubblewrap 不可用时不使用沙箱运行命令。</translation>
    </message>
    <message>
        <source>Context window in tokens (default: the stored session&apos;s policy, else the model&apos;s window from the model table, else 128000).</source>
        <translation>上下文窗口大小，单位为 token（默认：已存储会话的策略，否则为模型表中该模型的窗口，否则为 128000）。</translation>
    </message>
    <message>
        <source>Tool results larger than this are offloaded when the tool finishes (gate 1, default 10000).</source>
        <translation>大于此值的工具结果会在工具完成时卸载（关口 1，默认 10000）。</translation>
    </message>
    <message>
        <source>Tokens every request carried besides its messages and tool schemas (default: estimated from the reported input tokens for transcripts without their system prompt or tools; 0 for none).</source>
        <translation>每个请求除消息和工具 schema 之外携带的 token 数（默认：对于未保存系统提示词或工具的对话记录，根据报告的输入 token 估算；0 表示没有）。</translation>
    </message>
    <message>
        <source>The transcript file, or a folder of one JSON file per event (OpenHands).</source>
        <translation>对话记录文件，或每个事件一个 JSON 文件的文件夹（OpenHands）。</translation>
    </message>
    <message>
        <source>A file of several sessions (OpenHands evaluation output, a JSON array of trajectories): import only session N, counted from 0 (default: each into its own session, one id per line).</source>
        <translation>包含多个会话的文件（OpenHands 评测输出、轨迹的 JSON 数组）：只导入第 N 个会话，从 0 开始计数（默认：每个导入为独立会话，每行一个 ID）。</translation>
    </message>
    <message>
        <source>warning: %1: %2 number(s) no integer holds, read as not reported; the first: %3</source>
        <translation>警告：%1：有 %2 个数字超出整数范围，按未报告处理；第一个：%3</translation>
    </message>
    <message>
        <source>note: %1 holds %2 sessions; each was imported into its own session</source>
        <translation>注意：%1 包含 %2 个会话；每个都已导入为独立会话</translation>
    </message>
    <message>
        <source>Let the agent work in / or in your home folder itself, where it can reach every file (your keys included).</source>
        <translation>允许智能体在 / 或你的主文件夹本身中工作，它在那里能访问每个文件（包括你的密钥）。</translation>
    </message>
    <message>
        <source>the workspace %1 is the whole file system or your home folder; pass --allow-broad-workspace to let the agent work there</source>
        <translation>工作区 %1 是整个文件系统或你的主文件夹；传入 --allow-broad-workspace 才能让智能体在那里工作</translation>
    </message>
    <message>
        <source>session %1 works in %2, the whole file system or your home folder; pass --allow-broad-workspace to let the agent work there</source>
        <translation>会话 %1 在 %2 中工作，它是整个文件系统或你的主文件夹；传入 --allow-broad-workspace 才能让智能体在那里工作</translation>
    </message>
    <message>
        <source>... and %1 more</source>
        <translation>……另有 %1 个</translation>
    </message>
    <message numerus="yes">
        <source>--session-id: %1 holds no session &apos;%2&apos;; its %n session(s):</source>
        <translation>
            <numerusform>--session-id：%1 中没有会话“%2”；它的 %n 个会话：</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 holds %2 sessions; pick one with --session-index N or --session-id ID:</source>
        <translation>%1 包含 %2 个会话；请用 --session-index N 或 --session-id ID 选择一个：</translation>
    </message>
    <message>
        <source>A file of several sessions (OpenHands evaluation output, a JSON array of trajectories): the session to replay, counted from 0.</source>
        <translation>包含多个会话的文件（OpenHands 评测输出、轨迹的 JSON 数组）：要重放的会话，从 0 开始计数。</translation>
    </message>
    <message>
        <source>A file of several sessions: the session to replay, by its id (instance_id or run_id).</source>
        <translation>包含多个会话的文件：要重放的会话，按其 ID（instance_id 或 run_id）。</translation>
    </message>
    <message>
        <source>--session-index and --session-id exclude each other</source>
        <translation>--session-index 与 --session-id 不能同时使用</translation>
    </message>
    <message>
        <source>Where --replay writes offloaded results (default: a private folder next to the database). The session stays read-only until it is continued: waterline-cli run --session ID --workspace DIR.</source>
        <translation>--replay 写入卸载结果的位置（默认：数据库旁的私有文件夹）。在继续之前，会话保持只读：waterline-cli run --session ID --workspace DIR。</translation>
    </message>
    <message>
        <source>Continue this session instead of creating one; an imported session also needs --workspace.</source>
        <translation>继续此会话而不新建会话；导入的会话还需要 --workspace。</translation>
    </message>
    <message>
        <source>session %1 was imported and is read-only: pass --workspace DIR (and --profile or --provider) to continue it there</source>
        <translation>会话 %1 是导入的，处于只读状态：请传入 --workspace DIR（以及 --profile 或 --provider）在该处继续它</translation>
    </message>
    <message>
        <source>Score a session and a policy: facts lost, coverage and cost</source>
        <translation>为会话和策略评分：丢失的事实、覆盖率和成本</translation>
    </message>
    <message>
        <source>Forward another agent&apos;s provider requests through a local address</source>
        <translation>通过本地地址转发其他智能体发往提供商的请求</translation>
    </message>
    <message>
        <source>recorded</source>
        <translation>已记录</translation>
    </message>
    <message>
        <source>what-if</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <source>needed facts</source>
        <translation>所需事实</translation>
    </message>
    <message>
        <source>verbatim</source>
        <translation>原样</translation>
    </message>
    <message>
        <source>summarised</source>
        <translation>已摘要</translation>
    </message>
    <message>
        <source>retrievable</source>
        <translation>可找回</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>input tokens</source>
        <translation>输入 token</translation>
    </message>
    <message>
        <source>cache read tokens</source>
        <translation>缓存读取 token</translation>
    </message>
    <message>
        <source>cache write tokens</source>
        <translation>缓存写入 token</translation>
    </message>
    <message>
        <source>output tokens</source>
        <translation>输出 token</translation>
    </message>
    <message>
        <source>summary calls</source>
        <translation>摘要调用</translation>
    </message>
    <message>
        <source>US$ (%1, %2 caching)</source>
        <translation>美元（%1，%2 缓存）</translation>
    </message>
    <message>
        <source>US$ (no price for model &apos;%1&apos;)</source>
        <translation>美元（模型 &apos;%1&apos; 没有价格）</translation>
    </message>
    <message>
        <source>Facts the what-if loses (%1):</source>
        <translation>假设丢失的事实（%1 个）：</translation>
    </message>
    <message>
        <source>  request %1 used %2 %3</source>
        <translation>  请求 %1 用到了 %2 %3</translation>
    </message>
    <message>
        <source>Score a recorded session and a compaction policy: which facts each request needed (the ones its answer used), how many of them the view kept verbatim, summarised or retrievable, which were lost, and what the requests cost with prompt caching. FILE_OR_SESSION is a transcript file or, with --db, a stored session id.</source>
        <translation>为已记录的会话和压缩策略评分：每个请求需要哪些事实（即其回答用到的事实），视图将其中多少原样保留、摘要或保留为可找回，哪些丢失了，以及在使用提示词缓存时这些请求的成本。FILE_OR_SESSION 是对话记录文件，或配合 --db 使用时已存储会话的 ID。</translation>
    </message>
    <message>
        <source>A file of several sessions: the session to score, counted from 0.</source>
        <translation>包含多个会话的文件：要评分的会话，从 0 开始计数。</translation>
    </message>
    <message>
        <source>Price the requests as this model (default: the session&apos;s model).</source>
        <translation>按此模型为请求计价（默认：会话的模型）。</translation>
    </message>
    <message>
        <source>evaluate takes no positional arguments (give --input)</source>
        <translation>evaluate 不接受位置参数（请使用 --input）</translation>
    </message>
    <message>
        <source>warning: the price override for &apos;%1&apos; is not an object of prices &gt;= 0; ignored</source>
        <translation>警告：&apos;%1&apos; 的价格覆盖项不是由 &gt;= 0 的价格组成的对象；已忽略</translation>
    </message>
    <message>
        <source>Loopback address and port to listen on (default 127.0.0.1:0, any free port).</source>
        <translation>要监听的回环地址和端口（默认 127.0.0.1:0，即任意空闲端口）。</translation>
    </message>
    <message>
        <source>The provider&apos;s base URL, such as https://api.anthropic.com or https://api.openai.com.</source>
        <translation>提供商的基础 URL，例如 https://api.anthropic.com 或 https://api.openai.com。</translation>
    </message>
    <message>
        <source>proxy takes no positional arguments</source>
        <translation>proxy 不接受位置参数</translation>
    </message>
    <message>
        <source>--upstream is required</source>
        <translation>必须提供 --upstream</translation>
    </message>
    <message>
        <source>--listen: &apos;%1&apos; is not ADDRESS:PORT</source>
        <translation>--listen：&apos;%1&apos; 不是 ADDRESS:PORT 格式</translation>
    </message>
    <message>
        <source>window %1, peak ratio before compaction %2, requests per tier warn %3 soft %4 full %5 emergency %6, offloads %7, read by summaries %8</source>
        <translation>窗口 %1，压缩前峰值占用率 %2，各层级请求数：预警 %3、轻度 %4、完全 %5、紧急 %6，卸载 %7 次，摘要读取 %8</translation>
    </message>
    <message>
        <source>Print one JSON object {&quot;recorded&quot;: {...}, &quot;whatif&quot;: {...}} (with --sweep: an array of one object per policy).</source>
        <translation>输出一个 JSON 对象 {&quot;recorded&quot;: {...}, &quot;whatif&quot;: {...}}（使用 --sweep 时：每个策略一个对象组成的数组）。</translation>
    </message>
    <message>
        <source>Score every policy of a grid (a JSON object of option name to a list of values) over the session, or over every transcript of the folder --input names; the other policy options set the base the grid changes.</source>
        <translation>在该会话上（或在 --input 指定的文件夹中的每个记录上）为网格（一个将选项名映射到值列表的 JSON 对象）中的每个策略评分；其他策略选项构成网格所改变的基准。</translation>
    </message>
    <message>
        <source>Forward an agent&apos;s provider requests to the upstream provider, unchanged, through a local address,
and record each conversation as a session of the database.
Give the agent the base URL printed on the first line (its token keeps other local users out).</source>
        <translation>通过一个本地地址，将代理程序的服务商请求原样转发给上游服务商，
并将每段对话记录为数据库中的一个会话。
请将第一行打印的基础 URL 提供给代理程序（其中的令牌可阻止其他本地用户访问）。</translation>
    </message>
    <message>
        <source>Session database to record the conversations into (default: the one the window uses).</source>
        <translation>用于记录对话的会话数据库（默认：窗口所用的数据库）。</translation>
    </message>
    <message>
        <source>Compact mode: run Waterline&apos;s compaction (extractive summaries, offloads) on each request before forwarding it, with the policy options below. Off by default.</source>
        <translation>压缩模式：在转发每个请求之前，按下列策略选项对其运行 Waterline 的压缩（抽取式摘要、卸载）。默认关闭。</translation>
    </message>
    <message>
        <source>--summary: compact mode summarises extractively only</source>
        <translation>--summary：压缩模式仅进行抽取式摘要</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not &apos;on&apos; or &apos;off&apos;</source>
        <translation>%1：“%2”不是“on”或“off”</translation>
    </message>
    <message>
        <source>--strategy: &apos;%1&apos; is not &apos;summarise&apos;, &apos;mask&apos; or &apos;hybrid&apos;</source>
        <translation>--strategy：“%1”不是“summarise”、“mask”或“hybrid”</translation>
    </message>
    <message>
        <source>What Soft, Full and Emergency do: summarise (default: the stored session&apos;s policy, else summarise), mask (tool results replaced by placeholders, no summaries) or hybrid (mask first, summarise only when masking is not enough).</source>
        <translation>Soft、Full 和 Emergency 的做法：summarise（默认：已存储会话的策略，否则为 summarise）、mask（工具结果替换为占位符，不做摘要）或 hybrid（先遮蔽，仅当遮蔽不够时才摘要）。</translation>
    </message>
    <message>
        <source>Show a stored session&apos;s requests as the workbench does</source>
        <translation>按工作台的方式显示已存储会话的请求</translation>
    </message>
    <message>
        <source>Session %1: %2</source>
        <translation>会话 %1：%2</translation>
    </message>
    <message>
        <source>Source format: %1</source>
        <translation>来源格式：%1</translation>
    </message>
    <message>
        <source>(recorded here)</source>
        <translation>（在此记录）</translation>
    </message>
    <message>
        <source>Window: %1 tokens (%2)</source>
        <translation>窗口：%1 个 token（%2）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>gauge</source>
        <translation>用量表</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>view/held</source>
        <translation>视图/历史</translation>
    </message>
    <message>
        <source>source compacted</source>
        <translation>来源已压缩</translation>
    </message>
    <message>
        <source>-</source>
        <translation>-</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Show a stored session as the workbench shows it: per request the gauge&apos;s total, what was sent, its composition and what the provider reported.</source>
        <translation>按工作台的方式显示已存储的会话：每个请求的用量表总计、发送的内容、其构成以及提供商报告的数值。</translation>
    </message>
    <message>
        <source>Print one JSON object instead of a table.</source>
        <translation>输出一个 JSON 对象，而不是表格。</translation>
    </message>
    <message>
        <source>show takes exactly one session id</source>
        <translation>show 只接受一个会话 ID</translation>
    </message>
    <message>
        <source>there is no session %1</source>
        <translation>不存在会话 %1</translation>
    </message>
</context>
<context>
    <name>wl::AboutDialog</name>
    <message>
        <source>About Waterline</source>
        <translation>关于 Waterline</translation>
    </message>
    <message>
        <source>Waterline is distributed under the %1 licence.</source>
        <translation>Waterline 以 %1 许可证发布。</translation>
    </message>
    <message>
        <source>Waterline %1</source>
        <translation>Waterline %1</translation>
    </message>
    <message>
        <source>A workbench for long-running LLM agents: run an agent in a workspace folder, and watch, inspect and tune how its context window is compacted.</source>
        <translation>面向长时间运行的 LLM 智能体的工作台：在工作区文件夹中运行智能体，观察、检查并调整其上下文窗口的压缩方式。</translation>
    </message>
    <message>
        <source>Third-party software</source>
        <translation>第三方软件</translation>
    </message>
    <message>
        <source>Qt %1 (Core, Gui, Widgets, Network, Sql, Svg): %2</source>
        <translation>Qt %1（Core、Gui、Widgets、Network、Sql、Svg）：%2</translation>
    </message>
    <message>
        <source>GNU LGPL version 3</source>
        <translation>GNU LGPL 第 3 版</translation>
    </message>
    <message>
        <source>Qt Charts %1: %2</source>
        <translation>Qt Charts %1：%2</translation>
    </message>
    <message>
        <source>GNU GPL version 3</source>
        <translation>GNU GPL 第 3 版</translation>
    </message>
    <message>
        <source>KDE Frameworks KSyntaxHighlighting %1: %2; its syntax definitions carry their own licences</source>
        <translation>KDE Frameworks KSyntaxHighlighting %1：%2；其语法定义文件各有各的许可证</translation>
    </message>
    <message>
        <source>MIT licence</source>
        <translation>MIT 许可证</translation>
    </message>
    <message>
        <source>QtKeychain: %1</source>
        <translation>QtKeychain：%1</translation>
    </message>
    <message>
        <source>BSD 2-Clause licence</source>
        <translation>BSD 2-Clause 许可证</translation>
    </message>
    <message>
        <source>Demo session</source>
        <translation>演示会话</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>wl::AgentController</name>
    <message>
        <source>The new policy applies from the next prompt.</source>
        <translation>新策略从下一条提示词开始生效。</translation>
    </message>
    <message>
        <source>no session database is open</source>
        <translation>没有打开的会话数据库</translation>
    </message>
    <message>
        <source>The agent is still working; stop it (Esc) or wait.</source>
        <translation>智能体仍在运行；请停止它（Esc）或等待。</translation>
    </message>
    <message>
        <source>There is nothing to retry.</source>
        <translation>没有可重试的内容。</translation>
    </message>
    <message>
        <source>The agent is working; stop it (Esc) before running a command.</source>
        <translation>智能体正在运行；请先停止它（Esc）再执行命令。</translation>
    </message>
    <message>
        <source>There is no compaction to undo.</source>
        <translation>没有可撤销的压缩。</translation>
    </message>
    <message>
        <source>Start a session to talk to an agent: File › New Session (Ctrl+N) picks its workspace folder.</source>
        <translation>先开始一个会话再与智能体对话：通过“文件 › 新建会话”（Ctrl+N）选择其工作区文件夹。</translation>
    </message>
    <message>
        <source>This session cannot run an agent: %1</source>
        <translation>此会话无法运行智能体：%1</translation>
    </message>
    <message>
        <source>The provider “%1” has no model set: choose one in Settings (Ctrl+,).</source>
        <translation>提供商“%1”尚未设置模型：请在设置（Ctrl+,）中选择一个。</translation>
    </message>
    <message>
        <source>No model is reachable at %1 (%2). Start the server or pick another provider in Settings (Ctrl+,).</source>
        <translation>无法访问 %1 上的模型（%2）。请启动服务器，或在设置（Ctrl+,）中选择其他提供商。</translation>
    </message>
    <message>
        <source>Opening the session…</source>
        <translation>正在打开会话…</translation>
    </message>
    <message>
        <source>This session was imported and is read-only. File › Continue Imported Session (Ctrl+Shift+N) chooses the folder an agent continues it in and the provider it talks to.</source>
        <translation>此会话是导入的，处于只读状态。通过“文件 › 继续导入的会话”（Ctrl+Shift+N）选择智能体继续工作的文件夹及其使用的提供商。</translation>
    </message>
    <message>
        <source>The checkpoint is at version %1: the next request sends it.</source>
        <translation>检查点现为版本 %1：下一个请求将发送它。</translation>
    </message>
    <message>
        <source>Summary rejected: the history stays; it is drafted again at the next tier.</source>
        <translation>摘要已拒绝：历史保持不变；将在下一层级重新起草摘要。</translation>
    </message>
    <message>
        <source>Summary accepted: the agent goes on.</source>
        <translation>摘要已接受：代理继续运行。</translation>
    </message>
    <message>
        <source>A summary waits for your review; the agent goes on when you accept or reject it.</source>
        <translation>有一份摘要等待您审阅；您接受或拒绝后代理才会继续。</translation>
    </message>
    <message>
        <source>The checkpoint can be edited when the agent is idle.</source>
        <translation>代理空闲时才能编辑检查点。</translation>
    </message>
    <message>
        <source>The edit can be undone when the agent is idle.</source>
        <translation>代理空闲时才能撤销编辑。</translation>
    </message>
    <message>
        <source>This session was recorded through the proxy and is read-only. File › Continue Imported Session (Ctrl+Shift+N) chooses the folder an agent continues it in and the provider it talks to.</source>
        <translation>此会话是通过代理录制的，处于只读状态。通过“文件 › 继续导入的会话”（Ctrl+Shift+N）选择智能体继续工作的文件夹及其使用的提供商。</translation>
    </message>
    <message>
        <source>The summary was not committed (%1); the agent goes on.</source>
        <translation>摘要未提交（%1）；智能体继续运行。</translation>
    </message>
</context>
<context>
    <name>wl::AgentPage</name>
    <message>
        <source>Ask me first</source>
        <translation>先询问我</translation>
    </message>
    <message>
        <source>Allow without asking</source>
        <translation>直接允许</translation>
    </message>
    <message>
        <source>Approval of tool calls</source>
        <translation>工具调用审批</translation>
    </message>
    <message>
        <source>&amp;Reading files:</source>
        <translation>读取文件(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Writing or editing files:</source>
        <translation>写入或编辑文件(&amp;W)：</translation>
    </message>
    <message>
        <source>Running &amp;commands:</source>
        <translation>运行命令(&amp;C)：</translation>
    </message>
    <message>
        <source>A request that asks shows the exact command or diff, with Allow once, Allow for this session and Deny.</source>
        <translation>需要审批的请求会显示确切的命令或差异，并提供“允许一次”“本会话内允许”和“拒绝”。</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source> requests</source>
        <translation> 个请求</translation>
    </message>
    <message>
        <source>LLM requests one prompt may take before the run stops and asks you to go on</source>
        <translation>一条提示词最多可发起的 LLM 请求数，达到后运行会停下并询问是否继续</translation>
    </message>
    <message>
        <source>&amp;Turn limit:</source>
        <translation>轮次上限(&amp;T)：</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Commands run in a bubblewrap sandbox: only the workspace can be written, SSH keys, credentials and Waterline&apos;s own data are out of sight, and nothing a command starts outlives it.</source>
        <translation>命令在 bubblewrap 沙箱中运行：只有工作区可写，SSH 密钥、凭据和 Waterline 自己的数据不可见，命令启动的任何进程都不会比命令存活得更久。</translation>
    </message>
    <message>
        <source>Commands may use the &amp;network</source>
        <translation>命令可以使用网络(&amp;N)</translation>
    </message>
    <message>
        <source>Off: commands get no network at all (no package downloads, no git fetch)</source>
        <translation>关闭：命令完全无法访问网络（无法下载软件包，无法 git fetch）</translation>
    </message>
    <message>
        <source>Run commands without a sandbox where &amp;bubblewrap is unavailable</source>
        <translation>在 bubblewrap 不可用时不使用沙箱运行命令(&amp;B)</translation>
    </message>
    <message>
        <source>Without bubblewrap, commands can read your files and keys and leave processes running; the conversation says when this happens</source>
        <translation>没有 bubblewrap 时，命令可以读取你的文件和密钥，并留下仍在运行的进程；发生这种情况时对话会提示</translation>
    </message>
    <message>
        <source>e.g. JAVA_OPTS NODE_OPTIONS</source>
        <translation>例如 JAVA_OPTS NODE_OPTIONS</translation>
    </message>
    <message>
        <source>Variable names, separated by spaces, passed to commands beside PATH, HOME, the locale and the like. Everything else (tokens, keys) stays out.</source>
        <translation>以空格分隔的变量名，除 PATH、HOME、区域设置等之外也传给命令。其他一切（令牌、密钥）都不会传入。</translation>
    </message>
    <message>
        <source>Pass these &amp;environment variables:</source>
        <translation>传入这些环境变量(&amp;E)：</translation>
    </message>
</context>
<context>
    <name>wl::AgentRun</name>
    <message>
        <source>the session is already open</source>
        <translation>该会话已经打开</translation>
    </message>
    <message>
        <source>the agent needs a session store and an LLM client</source>
        <translation>智能体需要会话存储和 LLM 客户端</translation>
    </message>
    <message>
        <source>no model is set for the session</source>
        <translation>该会话未设置模型</translation>
    </message>
    <message>
        <source>cannot open session %1: %2</source>
        <translation>无法打开会话 %1：%2</translation>
    </message>
    <message>
        <source>the session&apos;s compaction policy is invalid: %1</source>
        <translation>该会话的压缩策略无效：%1</translation>
    </message>
    <message>
        <source>invalid compaction policy: %1</source>
        <translation>压缩策略无效：%1</translation>
    </message>
    <message>
        <source>session %1 has no workspace folder</source>
        <translation>会话 %1 没有工作区文件夹</translation>
    </message>
    <message>
        <source>the workspace folder %1 does not exist or is not a folder</source>
        <translation>工作区文件夹 %1 不存在或不是文件夹</translation>
    </message>
    <message>
        <source>cannot store the system prompt: %1</source>
        <translation>无法保存系统提示词：%1</translation>
    </message>
    <message>
        <source>cannot read the history of session %1: %2</source>
        <translation>无法读取会话 %1 的历史：%2</translation>
    </message>
    <message>
        <source>cannot read the compactions of session %1: %2</source>
        <translation>无法读取会话 %1 的压缩记录：%2</translation>
    </message>
    <message>
        <source>cannot store the session&apos;s progress: %1</source>
        <translation>无法保存会话进度：%1</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>已被用户停止</translation>
    </message>
    <message>
        <source>cannot undo the compaction: %1</source>
        <translation>无法撤销压缩：%1</translation>
    </message>
    <message>
        <source>the turn limit of %1 requests was reached; send another prompt to go on</source>
        <translation>已达到 %1 个请求的轮次上限；发送新的提示词即可继续</translation>
    </message>
    <message>
        <source>cannot store a compaction: %1</source>
        <translation>无法保存压缩：%1</translation>
    </message>
    <message>
        <source>the data read is of session %1, not of %2</source>
        <translation>读取的数据属于会话 %1，而不是 %2</translation>
    </message>
    <message>
        <source>cannot store the tool schemas: %1</source>
        <translation>无法保存工具 schema：%1</translation>
    </message>
    <message>
        <source>the workspace %1 is the whole file system or your home folder: the agent could read and change every file there; confirm it to work there (waterline-cli run --allow-broad-workspace)</source>
        <translation>工作区 %1 是整个文件系统或你的主文件夹：智能体可以读取和修改那里的每个文件；需确认后才能在那里工作（waterline-cli run --allow-broad-workspace）</translation>
    </message>
    <message>
        <source>gate 1 offload of the result of %1 (%2) failed: %3</source>
        <translation>%1（%2）结果的关口 1 卸载失败：%3</translation>
    </message>
    <message>
        <source>session %1 was imported and is read-only: continue it first to choose its workspace and provider (File › Continue Imported Session, or waterline-cli run --session ID --workspace DIR)</source>
        <translation>会话 %1 是导入的，处于只读状态：请先继续它以选择工作区和提供商（“文件 › 继续导入的会话”，或 waterline-cli run --session ID --workspace DIR）</translation>
    </message>
    <message>
        <source>cannot store the edited checkpoint: %1</source>
        <translation>无法保存编辑后的检查点：%1</translation>
    </message>
    <message>
        <source>cannot undo the edit: %1</source>
        <translation>无法撤销编辑：%1</translation>
    </message>
</context>
<context>
    <name>wl::AgentStatusBar</name>
    <message>
        <source>last request: %1 input tokens</source>
        <translation>上一个请求：%1 个输入 token</translation>
    </message>
    <message>
        <source>Input tokens the provider reported for the last request</source>
        <translation>提供商报告的上一个请求的输入 token 数</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>无模型</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 at %2
%3</source>
        <translation>%1（%2）
%3</translation>
    </message>
    <message>
        <source>Unsandboxed commands</source>
        <translation>无沙箱命令</translation>
    </message>
</context>
<context>
    <name>wl::AnchorHistoryModel</name>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>未变</translation>
    </message>
    <message>
        <source>kept (new value unknown)</source>
        <translation>保留（新值未知）</translation>
    </message>
    <message>
        <source>%1 (%2)

%3</source>
        <translation>%1（%2）

%3</translation>
    </message>
    <message>
        <source>Compaction %1 before request %2 (%3 tier), %4</source>
        <translation>请求 %2 之前的压缩 %1（%3级），%4</translation>
    </message>
    <message>
        <source>#%1 %2 (req %3)</source>
        <translation>#%1 %2（请求 %3）</translation>
    </message>
</context>
<context>
    <name>wl::AnchorItemsModel</name>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>reworded</source>
        <translation>改写</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 in compaction #%2

%3</source>
        <translation>在压缩 #%2 中%1

%3</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Each line of an anchor, in its latest wording</source>
        <translation>锚点的每一行，以其最新措辞显示</translation>
    </message>
    <message>
        <source>Compaction %1 before request %2 (%3 tier)</source>
        <translation>请求 %2 之前的压缩 %1（%3 层级）</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
</context>
<context>
    <name>wl::AnchorLineageView</name>
    <message>
        <source>compaction #%1 (%2 tier, before request %3)</source>
        <translation>压缩 #%1（%2 层级，请求 %3 之前）</translation>
    </message>
    <message>
        <source>Only dropped items</source>
        <translation>仅显示丢弃的条目</translation>
    </message>
    <message>
        <source>List only the items a compaction dropped from its anchor</source>
        <translation>仅列出被压缩从其锚点中丢弃的条目</translation>
    </message>
    <message>
        <source>Added by %1.</source>
        <translation>由 %1 新增。</translation>
    </message>
    <message>
        <source>From %1.</source>
        <translation>来自 %1。</translation>
    </message>
    <message>
        <source>message #%1</source>
        <translation>消息 #%1</translation>
    </message>
    <message>
        <source>No message of the summarised range names it.</source>
        <translation>摘要范围内没有任何消息提到它。</translation>
    </message>
    <message>
        <source>Kept by #%1.</source>
        <translation>由 #%1 保留。</translation>
    </message>
    <message>
        <source>Kept by #%1 to #%2.</source>
        <translation>由 #%1 至 #%2 保留。</translation>
    </message>
    <message>
        <source>Reworded by %1:</source>
        <translation>由 %1 改写：</translation>
    </message>
    <message>
        <source>Dropped by %1.</source>
        <translation>由 %1 丢弃。</translation>
    </message>
    <message>
        <source>Still in the latest anchors.</source>
        <translation>仍在最新的锚点中。</translation>
    </message>
    <message>
        <source>Items: %1 over %2 compactions, %3 dropped</source>
        <translation>条目：%1，跨 %2 次压缩，丢弃 %3</translation>
    </message>
    <message>
        <source>No compaction has written anchor items in this session yet.</source>
        <translation>本会话中尚无压缩写入锚点条目。</translation>
    </message>
    <message>
        <source>Select an item to follow it through the compactions.</source>
        <translation>选择一个条目，以在各次压缩中追踪它。</translation>
    </message>
</context>
<context>
    <name>wl::AnchorsPanel</name>
    <message>
        <source>No compaction has produced anchors in this session yet.</source>
        <translation>本会话中尚无压缩生成锚点。</translation>
    </message>
    <message>
        <source>Select a cell to compare it with the previous compaction.</source>
        <translation>选择一个单元格，与上一次压缩进行比较。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: compaction #%2 against %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：压缩 #%2 与 %3 对比</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>nothing (first compaction)</source>
        <translation>无（首次压缩）</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <source>kept: the new value was unknown</source>
        <translation>保留：新值未知</translation>
    </message>
    <message>
        <source>Cells:</source>
        <translation>单元格：</translation>
    </message>
    <message>
        <source>plain: unchanged</source>
        <translation>无底色：未变</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>Whole anchors</source>
        <translation>完整锚点</translation>
    </message>
    <message>
        <source>Each line of each anchor, followed through the compactions</source>
        <translation>每个锚点的每一行，在各次压缩中追踪</translation>
    </message>
    <message>
        <source>The anchors as each compaction left them</source>
        <translation>每次压缩后留下的锚点</translation>
    </message>
</context>
<context>
    <name>wl::ApiKeyStore</name>
    <message>
        <source>this profile needs no key</source>
        <translation>此配置不需要密钥</translation>
    </message>
    <message>
        <source>keychain entry %1</source>
        <translation>密钥环条目 %1</translation>
    </message>
    <message>
        <source>no keychain entry %1</source>
        <translation>没有密钥环条目 %1</translation>
    </message>
    <message>
        <source>keychain unavailable (%1)</source>
        <translation>密钥环不可用（%1）</translation>
    </message>
    <message>
        <source>keychain not used</source>
        <translation>未使用密钥环</translation>
    </message>
    <message>
        <source>%1; environment variable %2 is not set</source>
        <translation>%1；环境变量 %2 未设置</translation>
    </message>
    <message>
        <source>environment variable %1</source>
        <translation>环境变量 %1</translation>
    </message>
    <message>
        <source>no keychain is available; set the key in an environment variable instead</source>
        <translation>没有可用的密钥环；请改用环境变量设置密钥</translation>
    </message>
</context>
<context>
    <name>wl::AppSettings</name>
    <message>
        <source>The stored provider profiles are not a JSON array (%1).</source>
        <translation>已保存的提供商配置不是 JSON 数组（%1）。</translation>
    </message>
    <message>
        <source>wrong type</source>
        <translation>类型错误</translation>
    </message>
    <message>
        <source>Provider profile %1 could not be read: %2</source>
        <translation>无法读取提供商配置 %1：%2</translation>
    </message>
    <message>
        <source>Provider profile %1 has an empty or repeated name &quot;%2&quot;.</source>
        <translation>提供商配置 %1 的名称“%2”为空或重复。</translation>
    </message>
    <message>
        <source>Every provider profile needs a name.</source>
        <translation>每个提供商配置都需要名称。</translation>
    </message>
    <message>
        <source>Two provider profiles are called &quot;%1&quot;; names must be unique.</source>
        <translation>有两个提供商配置都叫“%1”；名称必须唯一。</translation>
    </message>
    <message>
        <source>Provider profile &quot;%1&quot;: %2</source>
        <translation>提供商配置“%1”：%2</translation>
    </message>
</context>
<context>
    <name>wl::AppearancePage</name>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>A new language takes effect when Waterline restarts.</source>
        <translation>新语言将在 Waterline 重启后生效。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restart Waterline&lt;/b&gt; to use the new language.</source>
        <translation>&lt;b&gt;重启 Waterline&lt;/b&gt; 以使用新语言。</translation>
    </message>
</context>
<context>
    <name>wl::ApprovalPolicy</name>
    <message>
        <source>&apos;%1&apos; must be &quot;ask&quot; or &quot;allow&quot;</source>
        <translation>&apos;%1&apos; 必须是 &quot;ask&quot; 或 &quot;allow&quot;</translation>
    </message>
    <message>
        <source>&apos;sandbox&apos; must be an object</source>
        <translation>&apos;sandbox&apos; 必须是一个对象</translation>
    </message>
</context>
<context>
    <name>wl::AuditLog</name>
    <message>
        <source>no audit file path given</source>
        <translation>未提供审计文件路径</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>not JSON (%1 at offset %2)</source>
        <translation>不是 JSON（%1，位于偏移量 %2）</translation>
    </message>
    <message>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
</context>
<context>
    <name>wl::BackgroundRunner</name>
    <message>
        <source>the background job failed</source>
        <translation>后台任务失败</translation>
    </message>
</context>
<context>
    <name>wl::BashTool</name>
    <message>
        <source>bash: %1</source>
        <translatorcomment>Shown to the user in the approval dialog; tool names (bash, edit_file, write_file) stay as they are.</translatorcomment>
        <translation>bash: %1</translation>
    </message>
</context>
<context>
    <name>wl::ChatClientSummarizer</name>
    <message>
        <source>no LLM client</source>
        <translation>没有 LLM 客户端</translation>
    </message>
    <message>
        <source>the answer was cut off at the output limit (finish reason: length)</source>
        <translation>回答在输出上限处被截断（结束原因：length）</translation>
    </message>
</context>
<context>
    <name>wl::ChatError</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>The API key was rejected (HTTP 401). Check the key set for this provider.</source>
        <translation>API 密钥被拒绝（HTTP 401）。请检查为该提供商设置的密钥。</translation>
    </message>
    <message>
        <source>The provider needs an API key, and none is set (HTTP 401).</source>
        <translation>该提供商需要 API 密钥，但尚未设置（HTTP 401）。</translation>
    </message>
    <message>
        <source>The API key is not allowed to use this model or endpoint (HTTP 403).</source>
        <translation>该 API 密钥无权使用此模型或端点（HTTP 403）。</translation>
    </message>
    <message>
        <source>Model not found: %1. Check the model name and the base URL (HTTP 404).</source>
        <translation>找不到模型：%1。请检查模型名称和基础 URL（HTTP 404）。</translation>
    </message>
    <message>
        <source>The provider timed out waiting for the request (HTTP 408).</source>
        <translation>提供商等待请求超时（HTTP 408）。</translation>
    </message>
    <message>
        <source>The account&apos;s quota or credit is used up; waiting will not help (HTTP 429).</source>
        <translation>账户的配额或额度已用完，等待也无济于事（HTTP 429）。</translation>
    </message>
    <message>
        <source>The provider&apos;s rate limit was reached (HTTP 429).</source>
        <translation>已达到提供商的速率限制（HTTP 429）。</translation>
    </message>
    <message>
        <source>The provider is overloaded right now (HTTP %1).</source>
        <translation>提供商当前负载过高（HTTP %1）。</translation>
    </message>
    <message>
        <source>The request is too large for the provider (HTTP 413).</source>
        <translation>请求过大，提供商无法处理（HTTP 413）。</translation>
    </message>
    <message>
        <source>The conversation is longer than the model&apos;s context window (HTTP %1).</source>
        <translation>对话长度超出了模型的上下文窗口（HTTP %1）。</translation>
    </message>
    <message>
        <source>The provider rejected the request (HTTP %1).</source>
        <translation>提供商拒绝了该请求（HTTP %1）。</translation>
    </message>
    <message>
        <source>The provider had an internal error (HTTP %1).</source>
        <translation>提供商发生内部错误（HTTP %1）。</translation>
    </message>
    <message>
        <source>The provider answered with an unexpected HTTP status %1.</source>
        <translation>提供商返回了意外的 HTTP 状态码 %1。</translation>
    </message>
    <message>
        <source>The provider is overloaded right now.</source>
        <translation>提供商当前负载过高。</translation>
    </message>
    <message>
        <source>The provider&apos;s rate limit was reached.</source>
        <translation>已达到提供商的速率限制。</translation>
    </message>
    <message>
        <source>The account&apos;s quota or credit is used up; waiting will not help.</source>
        <translation>账户的配额或额度已用完，等待也无济于事。</translation>
    </message>
    <message>
        <source>The API key was rejected.</source>
        <translation>API 密钥被拒绝。</translation>
    </message>
    <message>
        <source>The provider rejected the request.</source>
        <translation>提供商拒绝了该请求。</translation>
    </message>
    <message>
        <source>The provider reported an error in the middle of its reply.</source>
        <translation>提供商在回复过程中报告了错误。</translation>
    </message>
    <message>
        <source>Could not reach the provider, or the connection broke.</source>
        <translation>无法连接到提供商，或连接已中断。</translation>
    </message>
    <message>
        <source>The provider sent nothing for %1 s; the request timed out.</source>
        <translation>提供商 %1 秒内没有任何响应；请求超时。</translation>
    </message>
    <message>
        <source>The provider&apos;s reply could not be understood.</source>
        <translation>无法解析提供商的回复。</translation>
    </message>
    <message>
        <source>The request was cancelled.</source>
        <translation>请求已取消。</translation>
    </message>
    <message>
        <source>The reply did not finish within %1 s, although the provider kept the connection alive; the request was stopped.</source>
        <translation>回复在 %1 秒内没有结束，尽管提供商一直保持连接；请求已停止。</translation>
    </message>
    <message>
        <source>The provider&apos;s reply grew past %1 MB without ending; the request was stopped.</source>
        <translation>提供商的回复超过 %1 MB 仍未结束；请求已停止。</translation>
    </message>
    <message>
        <source>Refused to send the API key in clear text to %1: use https://, or http:// only for a server on this machine (127.0.0.1, localhost).</source>
        <translation>拒绝以明文向 %1 发送 API 密钥：请使用 https://，http:// 仅限本机上的服务器（127.0.0.1、localhost）。</translation>
    </message>
    <message>
        <source>The provider redirected the request to another server (%1); Waterline follows redirects only within the same server, so the key is not sent there. Check the base URL.</source>
        <translation>提供商把请求重定向到了另一台服务器（%1）；Waterline 只在同一服务器内跟随重定向，因此不会把密钥发往那里。请检查基础 URL。</translation>
    </message>
    <message>
        <source>start Ollama with `ollama serve`</source>
        <translation>请用 `ollama serve` 启动 Ollama</translation>
    </message>
    <message>
        <source>start the LM Studio server (`lms server start`)</source>
        <translation>请启动 LM Studio 服务器（`lms server start`）</translation>
    </message>
    <message>
        <source>start the server (vLLM: `vllm serve MODEL`)</source>
        <translation>请启动服务器（vLLM：`vllm serve MODEL`）</translation>
    </message>
    <message>
        <source>start the server (llama.cpp: `llama-server -m MODEL.gguf`)</source>
        <translation>请启动服务器（llama.cpp：`llama-server -m MODEL.gguf`）</translation>
    </message>
    <message>
        <source>start the model server, or correct the port in the provider&apos;s base URL</source>
        <translation>请启动模型服务器，或更正提供商基础 URL 中的端口</translation>
    </message>
    <message>
        <source>Nothing is listening at %1: %2.</source>
        <translation>%1 上没有服务在监听：%2。</translation>
    </message>
    <message>
        <source>Nothing is listening at %1: check that the server runs and the base URL&apos;s port.</source>
        <translation>%1 上没有服务在监听：请检查服务器是否正在运行，以及基础 URL 中的端口。</translation>
    </message>
    <message>
        <source>The host %1 was not found: check the base URL&apos;s host name and the network connection.</source>
        <translation>找不到主机 %1：请检查基础 URL 中的主机名和网络连接。</translation>
    </message>
    <message>
        <source>The secure connection to %1 failed: check the certificate, or whether the server speaks http:// rather than https://.</source>
        <translation>与 %1 的安全连接失败：请检查证书，或确认服务器使用的是否是 http:// 而不是 https://。</translation>
    </message>
</context>
<context>
    <name>wl::CheckpointEditing</name>
    <message>
        <source>The checkpoint is at version %1; the requests before the edit keep the text they sent.</source>
        <translation>检查点现为第 %1 版；编辑之前的请求保留它们当时发送的文本。</translation>
    </message>
    <message>
        <source>Could not store the edited checkpoint: %1</source>
        <translation>无法保存编辑后的检查点：%1</translation>
    </message>
    <message>
        <source>Could not undo the edit: %1</source>
        <translation>无法撤销该编辑：%1</translation>
    </message>
    <message>
        <source>The agent is working in this session: edit the checkpoint when it is idle.</source>
        <translation>代理正在此会话中工作：请在其空闲时编辑检查点。</translation>
    </message>
</context>
<context>
    <name>wl::CompactionLogModel</name>
    <message>
        <source>summariser model %1</source>
        <translation>摘要模型 %1</translation>
    </message>
    <message>
        <source>main model %1</source>
        <translation>主模型 %1</translation>
    </message>
    <message>
        <source>extractive (no LLM)</source>
        <translation>抽取式（不使用 LLM）</translation>
    </message>
    <message>
        <source>%1 (no change)</source>
        <translation>%1（无变化）</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 tier before request %2: %3 → %4 tokens, %5 → %6 messages, %7 summarised, %8 offloaded</source>
        <translation>请求 %2 之前的%1级压缩：%3 → %4 个 token，%5 → %6 条消息，摘要 %7 条，卸载 %8 条</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>Tokens before → after</source>
        <translation>token 数（前 → 后）</translation>
    </message>
    <message>
        <source>After / before</source>
        <translation>后 / 前</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Summariser</source>
        <translation>摘要器</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>wl::CompactionPage</name>
    <message>
        <source>The policy new sessions start with. A session can change its own policy in the Thresholds dock.</source>
        <translation>新会话初始使用的策略。每个会话可在“阈值”面板中修改自己的策略。</translation>
    </message>
    <message>
        <source>Thresholds (share of the context window in use)</source>
        <translation>阈值（已用上下文窗口的比例）</translation>
    </message>
    <message>
        <source>&amp;Warn at:</source>
        <translation>预警阈值(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Soft compaction at:</source>
        <translation>轻度压缩阈值(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Full compaction at:</source>
        <translation>完全压缩阈值(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Emergency at:</source>
        <translation>紧急阈值(&amp;E)：</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source>The thresholds stay in order: raising one raises those above it.</source>
        <translation>阈值始终保持递增顺序：调高某一阈值时，其上方的阈值会随之调高。</translation>
    </message>
    <message>
        <source>What a compaction keeps</source>
        <translation>压缩时保留的内容</translation>
    </message>
    <message>
        <source> messages</source>
        <translation> 条消息</translation>
    </message>
    <message>
        <source>The newest messages are never summarised</source>
        <translation>最新的消息永远不会被摘要</translation>
    </message>
    <message>
        <source>&amp;Tail kept verbatim:</source>
        <translation>原样保留的尾部(&amp;T)：</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Room left for the model&apos;s answer when measuring how full the context is</source>
        <translation>计算上下文占用时为模型回答预留的空间</translation>
    </message>
    <message>
        <source>&amp;Reserved for output:</source>
        <translation>为输出预留(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Count tool schemas in the context size</source>
        <translation>将工具 schema 计入上下文大小(&amp;C)</translation>
    </message>
    <message>
        <source>Offloading large tool results to files</source>
        <translation>将较大的工具结果卸载到文件</translation>
    </message>
    <message>
        <source> bytes</source>
        <translation> 字节</translation>
    </message>
    <message>
        <source>When a tool retur&amp;ns, above:</source>
        <translation>工具返回时，超过(&amp;N)：</translation>
    </message>
    <message>
        <source> lines</source>
        <translation> 行</translation>
    </message>
    <message>
        <source>  keeping a &amp;preview of:</source>
        <translation>  保留预览(&amp;P)：</translation>
    </message>
    <message>
        <source>When compacting, a&amp;bove:</source>
        <translation>压缩时，超过(&amp;B)：</translation>
    </message>
    <message>
        <source>  keeping a pre&amp;view of:</source>
        <translation>  保留预览(&amp;V)：</translation>
    </message>
    <message>
        <source>Summaries</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>After this the next fallback is used instead of waiting for the summary</source>
        <translation>超过此时间将改用下一个后备方案，不再等待摘要</translation>
    </message>
    <message>
        <source>Give &amp;up on a summary after:</source>
        <translation>摘要超时放弃时间(&amp;U)：</translation>
    </message>
    <message>
        <source>Restore &amp;defaults</source>
        <translation>恢复默认值(&amp;D)</translation>
    </message>
    <message>
        <source>Review su&amp;mmaries before they commit (new sessions)</source>
        <translation>提交前审阅摘要（新会话）(&amp;M)</translation>
    </message>
    <message>
        <source>A Soft or Full summary waits for you to read, edit and accept it; each session can turn it on or off in the Compactions dock</source>
        <translation>Soft 或 Full 摘要会等待您阅读、编辑并接受；每个会话都可在“压缩”停靠窗口中开启或关闭此项</translation>
    </message>
    <message>
        <source>Strate&amp;gy:</source>
        <translation>策略(&amp;G)：</translation>
    </message>
</context>
<context>
    <name>wl::CompactionPass</name>
    <message>
        <source>not offloaded: not an offloadable tool result</source>
        <translation>未卸载：不是可卸载的工具结果</translation>
    </message>
    <message>
        <source>not compacted: the summary (%1 bytes) is not smaller than the %2 bytes it would replace</source>
        <translation>未压缩：摘要（%1 字节）并不小于它要替换的 %2 字节</translation>
    </message>
    <message>
        <source>not cut: the session id cannot name a file</source>
        <translation>未截断：会话 ID 不能用作文件名</translation>
    </message>
    <message>
        <source>the system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>the tool schemas</source>
        <translation>工具 schema</translation>
    </message>
    <message>
        <source>the newest user message</source>
        <translation>最新的用户消息</translation>
    </message>
    <message>
        <source>the pinned section</source>
        <translation>固定部分</translation>
    </message>
    <message>
        <source>the reserved output</source>
        <translation>预留输出</translation>
    </message>
    <message>
        <source>the import&apos;s estimated overhead</source>
        <translation>导入的估算开销</translation>
    </message>
    <message>
        <source>not sent: the request needs %1 tokens and the context window holds %2, even after the emergency compaction; </source>
        <translation>未发送：即使经过紧急压缩，该请求仍需要 %1 个 token，而上下文窗口只能容纳 %2；</translation>
    </message>
    <message>
        <source>%1 is too large (%2 tokens)</source>
        <translation>%1 过大（%2 个 token）</translation>
    </message>
    <message>
        <source>what no compaction shortens takes %1 tokens (the largest: %2, %3 tokens) and the checkpoint, placeholders and short messages left %4</source>
        <translation>任何压缩都无法缩短的部分占 %1 个 token（最大的是 %2，%3 个 token），其余的检查点、占位符和短消息占 %4</translation>
    </message>
</context>
<context>
    <name>wl::CompactionRecord</name>
    <message>
        <source>field &quot;%1&quot; is missing or has the wrong type</source>
        <translation>字段 &quot;%1&quot; 缺失或类型错误</translation>
    </message>
</context>
<context>
    <name>wl::CompactionStrategy</name>
    <message>
        <source>Summarise</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Mask</source>
        <translation>遮蔽</translation>
    </message>
    <message>
        <source>Hybrid</source>
        <translation>混合</translation>
    </message>
    <message>
        <source>Soft and Full summarise the older messages (an LLM call); Emergency makes an extractive checkpoint.</source>
        <translation>Soft 和 Full 会对较早的消息进行摘要（一次 LLM 调用）；Emergency 生成抽取式检查点。</translation>
    </message>
    <message>
        <source>Soft and Full replace old tool results with placeholders that name their file and never summarise; only Emergency, when masking is not enough, makes an extractive checkpoint.</source>
        <translation>Soft 和 Full 将旧的工具结果替换为注明其文件的占位符，从不摘要；只有 Emergency 在遮蔽不够时生成抽取式检查点。</translation>
    </message>
    <message>
        <source>Old tool results are masked first; a summary is made only when masking does not bring the context below the tier&apos;s threshold.</source>
        <translation>先遮蔽旧的工具结果；仅当遮蔽无法使上下文降到该层级的阈值以下时才生成摘要。</translation>
    </message>
</context>
<context>
    <name>wl::CompactionsPanel</name>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Save the records shown as JSONL (the audit format) or CSV</source>
        <translation>将显示的记录保存为 JSONL（审计格式）或 CSV</translation>
    </message>
    <message>
        <source>As JSONL...</source>
        <translation>导出为 JSONL...</translation>
    </message>
    <message>
        <source>As CSV...</source>
        <translation>导出为 CSV...</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export compaction records</source>
        <translation>导出压缩记录</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Select a compaction to see what it summarised and offloaded, which anchors changed, and its checkpoint.</source>
        <translation>选择一次压缩，即可查看它摘要和卸载了哪些内容、哪些锚点有变化，以及它的检查点。</translation>
    </message>
    <message>
        <source>Review summaries</source>
        <translation>审阅摘要</translation>
    </message>
    <message>
        <source>This session: a Soft or Full summary waits for you to read, edit and accept it before it replaces the history (the Emergency tier never waits)</source>
        <translation>本会话：Soft 或 Full 摘要在替换历史之前会等待您阅读、编辑并接受（Emergency 层级从不等待）</translation>
    </message>
    <message>
        <source>Edit Checkpoint...</source>
        <translation>编辑检查点...</translation>
    </message>
    <message>
        <source>Edit the selected compaction&apos;s checkpoint; the requests that follow send the new version</source>
        <translation>编辑所选压缩的检查点；之后的请求将发送新版本</translation>
    </message>
    <message>
        <source>Undo Edit</source>
        <translation>撤销编辑</translation>
    </message>
    <message>
        <source>Go back one version of the selected checkpoint (every version&apos;s text is kept)</source>
        <translation>将所选检查点回退一个版本（每个版本的文本都会保留）</translation>
    </message>
</context>
<context>
    <name>wl::ComparePoliciesWindow</name>
    <message>
        <source>Compare Policies</source>
        <translation>比较策略</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开的会话</translation>
    </message>
    <message>
        <source>Folder of transcripts</source>
        <translation>记录文件夹</translation>
    </message>
    <message>
        <source>Choose &amp;Folder...</source>
        <translation>选择文件夹(&amp;F)...</translation>
    </message>
    <message>
        <source>Folder of Transcripts</source>
        <translation>记录文件夹</translation>
    </message>
    <message>
        <source>The policies to compare: a JSON object of option name (window, warn, soft, full, emergency, tail, offload-threshold, offload-at-tool-time, count-tool-schemas) to a list of values; every combination is replayed, over the current policy.</source>
        <translation>要比较的策略：一个 JSON 对象，将选项名（window、warn、soft、full、emergency、tail、offload-threshold、offload-at-tool-time、count-tool-schemas）映射到值列表；每种组合都会在当前策略基础上重放。</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Apply to Thresholds</source>
        <translation>应用到阈值(&amp;A)</translation>
    </message>
    <message>
        <source>Load the selected policy into the Thresholds dock&apos;s sliders</source>
        <translation>将所选策略载入“阈值”停靠窗口的滑块</translation>
    </message>
    <message>
        <source>Sessions:</source>
        <translation>会话：</translation>
    </message>
    <message>
        <source>Policies (option: values):</source>
        <translation>策略（选项：值）：</translation>
    </message>
    <message>
        <source>Choose a folder of transcripts.</source>
        <translation>请选择一个记录文件夹。</translation>
    </message>
    <message>
        <source>Folder: %1</source>
        <translation>文件夹：%1</translation>
    </message>
    <message>
        <source>Open a session to compare policies on it.</source>
        <translation>打开一个会话以在其上比较策略。</translation>
    </message>
    <message>
        <source>The session&apos;s facts are still being found; run once they are.</source>
        <translation>仍在查找该会话的事实；查找完成后再运行。</translation>
    </message>
    <message>
        <source>Session: %1</source>
        <translation>会话：%1</translation>
    </message>
    <message>
        <source>Policies: %1</source>
        <translation>策略：%1</translation>
    </message>
    <message>
        <source>Reading the transcripts...</source>
        <translation>正在读取记录...</translation>
    </message>
    <message numerus="yes">
        <source>Replaying %n policies...</source>
        <translation>
            <numerusform>正在重放 %n 个策略...</numerusform>
        </translation>
    </message>
    <message>
        <source>Replayed %1 of %2 runs</source>
        <translation>已重放 %1 / %2 次运行</translation>
    </message>
    <message>
        <source>Cancelling...</source>
        <translation>正在取消...</translation>
    </message>
    <message>
        <source>The sweep failed: %1</source>
        <translation>扫描失败：%1</translation>
    </message>
    <message>
        <source>Cancelled; the policies shown before are kept.</source>
        <translation>已取消；之前显示的策略保留不变。</translation>
    </message>
    <message>
        <source>No file in the folder imports as a transcript.</source>
        <translation>文件夹中没有可作为记录导入的文件。</translation>
    </message>
    <message numerus="yes">
        <source>%n policies over %1 session(s); %2 on the Pareto front (cost against coverage).</source>
        <translation>
            <numerusform>%n 个策略，覆盖 %1 个会话；其中 %2 个位于帕累托前沿（成本对覆盖率）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Skipped (not transcripts): %1</source>
        <translation>已跳过（非记录）：%1</translation>
    </message>
</context>
<context>
    <name>wl::Composition</name>
    <message>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>Tool schemas</source>
        <translation>工具模式</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>History, verbatim</source>
        <translation>历史（原文）</translation>
    </message>
    <message>
        <source>Offload placeholders</source>
        <translation>卸载占位符</translation>
    </message>
    <message>
        <source>Reserved output</source>
        <translation>预留输出</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>%1: %2 tokens (%3%)</source>
        <translation>%1：%2 令牌（%3%）</translation>
    </message>
    <message>
        <source>%1: %2 tokens</source>
        <translation>%1：%2 令牌</translation>
    </message>
    <message>
        <source>Window: %1 tokens</source>
        <translation>窗口：%1 令牌</translation>
    </message>
    <message>
        <source>No context window</source>
        <translation>无上下文窗口</translation>
    </message>
    <message>
        <source>(over it by %1 tokens)</source>
        <translation>（超出 %1 令牌）</translation>
    </message>
    <message>
        <source>Estimated overhead (import)</source>
        <translation>估算开销（导入）</translation>
    </message>
    <message>
        <source>Provider&apos;s count beyond bytes / 4 (calibrated)</source>
        <translation>提供方计数中超出“字节数 / 4”的部分（已校准）</translation>
    </message>
</context>
<context>
    <name>wl::CompositionBar</name>
    <message>
        <source>Composition of the request</source>
        <translation>请求的构成</translation>
    </message>
    <message>
        <source>No request selected</source>
        <translation>未选择请求</translation>
    </message>
    <message>
        <source>%1 %2 (%3%)</source>
        <translation>%1 %2 (%3%)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Over the %1-token window by %2 tokens</source>
        <translation>超出 %1 令牌的窗口 %2 个令牌</translation>
    </message>
</context>
<context>
    <name>wl::ContextGauge</name>
    <message>
        <source>No session open</source>
        <translation>未打开会话</translation>
    </message>
    <message>
        <source>Context gauge</source>
        <translation>上下文用量表</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <source>Next request: about %1 of the session&apos;s %2-token window (%3%), tier %4</source>
        <translation>下一个请求：约 %1 个 token，占会话 %2 个 token 窗口的 %3%，层级：%4</translation>
    </message>
    <message>
        <source>Last recorded request: about %1 of the session&apos;s %2-token window (%3%), tier %4</source>
        <translation>最后记录的请求：约 %1 个 token，占会话 %2 个 token 窗口的 %3%，层级：%4</translation>
    </message>
</context>
<context>
    <name>wl::ContextHistoryModel</name>
    <message>
        <source>tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <source>sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>offloaded</source>
        <translation>已卸载</translation>
    </message>
    <message>
        <source>summarised</source>
        <translation>已摘要</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>In the request</source>
        <translation>在请求中</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
</context>
<context>
    <name>wl::ContextPanel</name>
    <message>
        <source>Sent to the model</source>
        <translation>发送给模型的内容</translation>
    </message>
    <message>
        <source>Full history at that moment</source>
        <translation>当时的完整历史</translation>
    </message>
    <message>
        <source>Select a request on the timeline to see exactly what the model was sent.</source>
        <translation>在时间线上选择一个请求，即可查看模型收到的确切内容。</translation>
    </message>
    <message>
        <source>Request %1: %2 of the history&apos;s %3 messages sent, about %4 tokens to the provider.</source>
        <translation>请求 %1：已发送历史 %3 条消息中的 %2 条，约 %4 个 token 发往提供商。</translation>
    </message>
    <message>
        <source>With the reserved output, as the gauge and the timeline count it: %1 tokens.</source>
        <translation>计入预留输出（与用量表和时间线的计数方式相同）：%1 个 token。</translation>
    </message>
    <message>
        <source>That is %1% of the %2-token window.</source>
        <translation>即 %2 个 token 窗口的 %1%。</translation>
    </message>
    <message>
        <source>It includes an estimated %1 tokens of fixed overhead the transcript did not store (the source agent&apos;s system prompt and tools), measured from the provider&apos;s reports.</source>
        <translation>其中包括对话记录未保存的约 %1 个 token 固定开销（来源智能体的系统提示词和工具），根据提供商的报告测得。</translation>
    </message>
    <message>
        <source>It is over the window by %1 tokens.</source>
        <translation>超出窗口 %1 个 token。</translation>
    </message>
    <message>
        <source>The window is the session&apos;s policy&apos;s.</source>
        <translation>窗口取自会话自身的策略。</translation>
    </message>
    <message>
        <source>The window is the provider profile&apos;s.</source>
        <translation>窗口取自提供方配置。</translation>
    </message>
    <message>
        <source>The window is the default: neither the transcript nor the model table names one.</source>
        <translation>窗口为默认值：记录和模型表都未给出窗口。</translation>
    </message>
    <message>
        <source>The window is the one the transcript records (%1).</source>
        <translation>窗口为记录中写明的窗口（%1）。</translation>
    </message>
    <message>
        <source>The window is the model table&apos;s for %1.</source>
        <translation>窗口取自模型表中 %1 的条目。</translation>
    </message>
    <message>
        <source>The provider&apos;s tokenizer counted more than the estimate&apos;s bytes / 4 in this session: %1 tokens are added for that, calibrated on the requests it reported.</source>
        <translation>在此会话中，提供方的分词器计得的 token 数多于估算所用的“字节数 / 4”：为此加上 %1 个 token，按其报告过的请求校准。</translation>
    </message>
</context>
<context>
    <name>wl::ContextViewModel</name>
    <message>
        <source>system prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>verbatim</source>
        <translation>原样</translation>
    </message>
    <message>
        <source>offload placeholder</source>
        <translation>卸载占位符</translation>
    </message>
    <message>
        <source>stub (result compacted away)</source>
        <translation>存根（结果已被压缩移除）</translation>
    </message>
    <message>
        <source>checkpoint (messages %1–%2)</source>
        <translation>检查点（消息 %1–%2）</translation>
    </message>
    <message>
        <source>tool result</source>
        <translation>工具结果</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>What it is</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
</context>
<context>
    <name>wl::ContinueSessionDialog</name>
    <message>
        <source>Continue Imported Session</source>
        <translation>继续导入的会话</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; was imported and is read-only. To let an agent continue it, choose the folder it works in and the provider it talks to.&lt;br&gt;&lt;br&gt;Nothing is taken from the imported file: not its folder, not its provider or key, not its approval settings, and not its system prompt (the agent uses Waterline&apos;s own). The recorded history stays as it was.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 是导入的，处于只读状态。要让智能体继续它，请选择智能体工作的文件夹及其使用的提供商。&lt;br&gt;&lt;br&gt;导入的文件不提供任何设置：不用它的文件夹、提供商或密钥、审批设置，也不用它的系统提示词（智能体使用 Waterline 自己的）。记录下的历史保持原样。</translation>
    </message>
    <message>
        <source>The folder the agent works in</source>
        <translation>智能体工作的文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>&amp;Workspace:</source>
        <translation>工作区(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation>提供商(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Continue Here</source>
        <translation>在此继续(&amp;C)</translation>
    </message>
    <message>
        <source>Choose the folder the agent works in</source>
        <translation>选择智能体工作的文件夹</translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation>%1 不是文件夹</translation>
    </message>
</context>
<context>
    <name>wl::ConversationDelegate</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1:%2 min</source>
        <translation>%1:%2 分钟</translation>
    </message>
    <message>
        <source>… %1 more characters</source>
        <translation>… 还有 %1 个字符</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>Compaction checkpoint</source>
        <translation>压缩检查点</translation>
    </message>
    <message>
        <source>System note</source>
        <translation>系统提示</translation>
    </message>
    <message>
        <source>Allow once</source>
        <translation>允许一次</translation>
    </message>
    <message>
        <source>Allow for this session</source>
        <translation>本会话内允许</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>offloaded</source>
        <translation>已卸载</translation>
    </message>
    <message>
        <source>No result yet.</source>
        <translation>尚无结果。</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <source>(empty result)</source>
        <translation>（结果为空）</translation>
    </message>
    <message>
        <source>… %1 more lines</source>
        <translation>… 还有 %1 行</translation>
    </message>
    <message>
        <source>%1 · writing…</source>
        <translation>%1 · 正在写入…</translation>
    </message>
    <message>
        <source>running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Result (preview of %1 characters)</source>
        <translation>结果（预览 %1 个字符）</translation>
    </message>
    <message>
        <source>Approval needed: %1 wants to change files</source>
        <translation>需要审批：%1 想要修改文件</translation>
    </message>
    <message>
        <source>Approval needed: %1 wants to run</source>
        <translation>需要审批：%1 想要运行命令</translation>
    </message>
    <message>
        <source>%1 elapsed</source>
        <translation>已用时 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n secret(s) removed</source>
        <translation>
            <numerusform>已移除 %n 个密钥</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · pinned</source>
        <translation>%1 · 已固定</translation>
    </message>
</context>
<context>
    <name>wl::ConversationFeed</name>
    <message>
        <source>Skipped this summary step; the next fallback writes it.</source>
        <translation>已跳过此摘要步骤；由下一个后备方案生成。</translation>
    </message>
    <message>
        <source>The last compaction was undone: the next request sends the earlier view again.</source>
        <translation>已撤销上一次压缩：下一个请求将重新发送之前的视图。</translation>
    </message>
    <message>
        <source>Problem: %1</source>
        <translation>问题：%1</translation>
    </message>
    <message>
        <source>Commands of this session run without a sandbox: %1</source>
        <translation>此会话的命令在没有沙箱的情况下运行：%1</translation>
    </message>
    <message>
        <source>Compaction checked: the context is below every threshold, nothing changed.</source>
        <translation>已检查压缩：上下文低于所有阈值，未做任何更改。</translation>
    </message>
    <message>
        <source>The provider answered: %1</source>
        <translation>提供商返回：%1</translation>
    </message>
    <message>
        <source>Stopped by the user. The partial answer above was not kept; Retry continues the turn.</source>
        <translation>已被用户停止。上方的部分回答未保留；点击“重试”可继续本轮。</translation>
    </message>
    <message>
        <source>Stopped by the user. Retry continues the turn.</source>
        <translation>已被用户停止。点击“重试”可继续本轮。</translation>
    </message>
    <message>
        <source>Not reviewed: the Emergency tier does not wait; it committed the extractive checkpoint. You can still edit it in the Compactions dock.</source>
        <translation>未审阅：Emergency 层级不会等待，已提交抽取式检查点。您仍可在“压缩”停靠窗口中编辑它。</translation>
    </message>
</context>
<context>
    <name>wl::ConversationModel</name>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Warn</source>
        <translation>预警</translation>
    </message>
    <message>
        <source>Soft</source>
        <translation>轻度</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>Emergency</source>
        <translation>紧急</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Waiting for your decision</source>
        <translation>等待你的决定</translation>
    </message>
    <message>
        <source>Allowed once</source>
        <translation>已允许一次</translation>
    </message>
    <message>
        <source>Allowed for this session</source>
        <translation>本会话内已允许</translation>
    </message>
    <message>
        <source>Denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Compacting context (%1 tier, summarising 1 message)</source>
        <translation>正在压缩上下文（%1级，摘要 1 条消息）</translation>
    </message>
    <message>
        <source>Compacting context (%1 tier, summarising %2 messages)</source>
        <translation>正在压缩上下文（%1级，摘要 %2 条消息）</translation>
    </message>
    <message>
        <source>Waiting to retry (attempt %1, next in %2 s)</source>
        <translation>等待重试（第 %1 次尝试，%2 秒后进行）</translation>
    </message>
    <message>
        <source>Context compacted (%1 tier): %2 → %3 tokens · %4 · %5</source>
        <translation>上下文已压缩（%1级）：%2 → %3 个 token · %4 · %5</translation>
    </message>
    <message>
        <source>1 anchor changed</source>
        <translation>1 个锚点有变化</translation>
    </message>
    <message>
        <source>%1 anchors changed</source>
        <translation>%1 个锚点有变化</translation>
    </message>
    <message>
        <source>1 offload</source>
        <translation>卸载 1 项</translation>
    </message>
    <message>
        <source>%1 offloads</source>
        <translation>卸载 %1 项</translation>
    </message>
    <message>
        <source>Approval for %1 (%2):
%3</source>
        <translation>%1（%2）的审批：
%3</translation>
    </message>
    <message>
        <source>Open compaction record %1</source>
        <translation>打开压缩记录 %1</translation>
    </message>
    <message>
        <source>Tool call %1 (%2)</source>
        <translation>工具调用 %1（%2）</translation>
    </message>
    <message>
        <source>(unknown tool)</source>
        <translation>（未知工具）</translation>
    </message>
    <message>
        <source>%1 tokens before</source>
        <translation>压缩前 %1 个 token</translation>
    </message>
    <message>
        <source>size before unknown</source>
        <translation>压缩前大小未知</translation>
    </message>
    <message>
        <source>%1 compacted its own context: %2</source>
        <translation>%1 压缩了自己的上下文：%2</translation>
    </message>
    <message>
        <source>%1 compacted its own context: %2 · sent its summary instead (hover to read)</source>
        <translation>%1 压缩了自己的上下文：%2 · 改为发送其摘要（悬停可阅读）</translation>
    </message>
</context>
<context>
    <name>wl::ConversationView</name>
    <message>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
</context>
<context>
    <name>wl::DefinitionMenu</name>
    <message>
        <source>Search languages</source>
        <translation>搜索语言</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>None (plain text)</source>
        <translation>无（纯文本）</translation>
    </message>
    <message>
        <source>No language matches</source>
        <translation>没有匹配的语言</translation>
    </message>
    <message numerus="yes">
        <source>%n more: type more letters</source>
        <translation>
            <numerusform>还有 %n 个：请继续输入以缩小范围</numerusform>
        </translation>
    </message>
    <message>
        <source>Automatic (%1)</source>
        <translation>自动（%1）</translation>
    </message>
</context>
<context>
    <name>wl::EditFileTool</name>
    <message>
        <source>file not found: &apos;%1&apos;; use write_file to create it</source>
        <translatorcomment>Shown to the user in the approval dialog; tool names (bash, edit_file, write_file) stay as they are.</translatorcomment>
        <translation>找不到文件：&apos;%1&apos;；请使用 write_file 创建它</translation>
    </message>
    <message>
        <source>edit_file %1</source>
        <translatorcomment>Shown to the user in the approval dialog; tool names (bash, edit_file, write_file) stay as they are.</translatorcomment>
        <translation>edit_file %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has %2 hard links: the same file has another name, possibly outside the workspace; the edit will be refused</source>
        <translation>“%1”有 %2 个硬链接：同一文件还有其他名称，可能位于工作区之外；编辑将被拒绝</translation>
    </message>
</context>
<context>
    <name>wl::FindBar</name>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Find in the loaded text</source>
        <translation>在已加载的文本中查找</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <source>Close the find bar (Esc)</source>
        <translation>关闭查找栏（Esc）</translation>
    </message>
    <message>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <source>Wrapped to the end</source>
        <translation>已回绕到末尾</translation>
    </message>
    <message>
        <source>Wrapped to the start</source>
        <translation>已回绕到开头</translation>
    </message>
    <message>
        <source>Not found in the loaded text</source>
        <translation>在已加载的文本中未找到</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>%1 of at least %2</source>
        <translation>第 %1 个，至少共 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>at least %n match(es)</source>
        <translation>
            <numerusform>至少 %n 个匹配</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::FirstRunPanel</name>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Connect a model</source>
        <translation>连接模型</translation>
    </message>
    <message>
        <source>Waterline runs an agent against a language model. No model answered yet; a local one takes three steps.</source>
        <translation>Waterline 让智能体调用语言模型来工作。目前还没有模型响应；使用本地模型只需三步。</translation>
    </message>
    <message>
        <source>Install &lt;b&gt;Ollama&lt;/b&gt; (or any OpenAI-compatible server: llama.cpp, vLLM, LM Studio) and start it.</source>
        <translation>安装 &lt;b&gt;Ollama&lt;/b&gt;（或任何兼容 OpenAI 的服务器：llama.cpp、vLLM、LM Studio）并启动它。</translation>
    </message>
    <message>
        <source>Download a model that can call tools, for example &lt;code&gt;ollama pull qwen3&lt;/code&gt;</source>
        <translation>下载一个支持工具调用的模型，例如 &lt;code&gt;ollama pull qwen3&lt;/code&gt;</translation>
    </message>
    <message>
        <source>Check that Waterline can reach it at this &amp;address:</source>
        <translation>检查 Waterline 能否通过此地址访问它(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Check again</source>
        <translation>再次检查(&amp;C)</translation>
    </message>
    <message>
        <source>Open &amp;Settings…</source>
        <translation>打开设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Open the &amp;demo session</source>
        <translation>打开演示会话(&amp;D)</translation>
    </message>
    <message>
        <source>Reachable, but the server offers no model yet: download one (step 2), then check again.</source>
        <translation>可以访问，但服务器尚未提供任何模型：请先下载一个（第 2 步），然后再次检查。</translation>
    </message>
    <message>
        <source>Reachable. Models offered: %1 (%2).</source>
        <translation>可以访问。提供的模型：%1（%2）。</translation>
    </message>
    <message>
        <source>Not reachable: %1</source>
        <translation>无法访问：%1</translation>
    </message>
    <message>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <source>Enter an http:// or https:// address, such as %1.</source>
        <translation>请输入 http:// 或 https:// 地址，例如 %1。</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Using a hosted API (OpenAI, Anthropic, OpenRouter) or another address? Add a provider profile in Settings. Just looking around? The demo session shows a long run with its compactions, and an imported Claude Code, Codex, OpenHands or SWE-agent transcript can be replayed and tuned: neither needs a model.</source>
        <translation>使用托管 API（OpenAI、Anthropic、OpenRouter）或其他地址？请在设置中添加提供商配置。只是想随便看看？演示会话展示了一次长时间运行及其中的各次压缩；导入的 Claude Code、Codex、OpenHands 或 SWE-agent 对话记录也可以重放和调优：两者都不需要模型。</translation>
    </message>
    <message>
        <source>&amp;Import a transcript…</source>
        <translation>导入对话记录(&amp;I)…</translation>
    </message>
    <message>
        <source>Replay another agent&apos;s session (Claude Code, Codex, OpenHands, SWE-agent, OpenAI messages) or a Waterline export</source>
        <translation>重放其他智能体的会话（Claude Code、Codex、OpenHands、SWE-agent、OpenAI 消息）或 Waterline 导出文件</translation>
    </message>
</context>
<context>
    <name>wl::LayoutPresets</name>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Tune</source>
        <translation>调优</translation>
    </message>
    <message>
        <source>Converse</source>
        <translation>对话</translation>
    </message>
    <message>
        <source>Inspect</source>
        <translation>检查</translation>
    </message>
</context>
<context>
    <name>wl::MainWindow</name>
    <message>
        <source>Waterline</source>
        <translation>Waterline</translation>
    </message>
    <message>
        <source>No session open</source>
        <translation>未打开会话</translation>
    </message>
    <message>
        <source>Could not open session %1</source>
        <translation>无法打开会话 %1</translation>
    </message>
    <message>
        <source>Could not open the session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Import Transcript...</source>
        <translation>导入对话记录(&amp;I)...</translation>
    </message>
    <message>
        <source>Import a session of Claude Code, Codex, SWE-agent, OpenHands, OpenAI Chat messages or a Waterline export</source>
        <translation>导入 Claude Code、Codex、SWE-agent、OpenHands 的会话，OpenAI Chat 消息，或 Waterline 导出文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Waterline</source>
        <translation>关于 Waterline(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Could not apply the policy</source>
        <translation>无法应用该策略</translation>
    </message>
    <message>
        <source>The session now compacts with the new policy.</source>
        <translation>该会话现在按新策略进行压缩。</translation>
    </message>
    <message>
        <source>Opening session %1...</source>
        <translation>正在打开会话 %1...</translation>
    </message>
    <message>
        <source>%1 — Waterline</source>
        <translation>%1 — Waterline</translation>
    </message>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n message(s)</source>
        <translation>
            <numerusform>%1：%n 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n request(s)</source>
        <translation>
            <numerusform>，%n 个请求</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n compaction(s)</source>
        <translation>
            <numerusform>，%n 次压缩</numerusform>
        </translation>
    </message>
    <message>
        <source>Import a transcript</source>
        <translation>导入对话记录</translation>
    </message>
    <message>
        <source>Agent transcripts (*.jsonl *.json *.traj);;All files (*)</source>
        <translation>智能体对话记录 (*.jsonl *.json *.traj);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>No session database is open.</source>
        <translation>没有打开的会话数据库。</translation>
    </message>
    <message>
        <source>Importing %1...</source>
        <translation>正在导入 %1...</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Import of %1 cancelled; nothing was kept.</source>
        <translation>已取消导入 %1；未保留任何内容。</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <source>The agent cannot run in this session: %1</source>
        <translation>智能体无法在此会话中运行：%1</translation>
    </message>
    <message>
        <source>Could not refresh the docks: %1</source>
        <translation>无法刷新停靠面板：%1</translation>
    </message>
    <message>
        <source>Could not save the provider: %1</source>
        <translation>无法保存提供商：%1</translation>
    </message>
    <message>
        <source>The new language is used from the next start of Waterline.</source>
        <translation>新语言将在下次启动 Waterline 时生效。</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
    <message>
        <source>&amp;New Session...</source>
        <translation>新建会话(&amp;N)...</translation>
    </message>
    <message>
        <source>Start an agent session in a workspace folder</source>
        <translation>在工作区文件夹中开始一个智能体会话</translation>
    </message>
    <message>
        <source>Open the &amp;Demo Session</source>
        <translation>打开演示会话(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Settings...</source>
        <translation>设置(&amp;S)...</translation>
    </message>
    <message>
        <source>%1 holds %2 sessions: each was imported, the first is open.</source>
        <translation>%1 包含 %2 个会话：已全部导入，并打开了第一个。</translation>
    </message>
    <message>
        <source>&amp;Continue Imported Session...</source>
        <translation>继续导入的会话(&amp;C)...</translation>
    </message>
    <message>
        <source>Choose the folder and provider an imported session continues with</source>
        <translation>选择导入的会话继续使用的文件夹和提供商</translation>
    </message>
    <message>
        <source>Show the %1 dock and bring it to the front</source>
        <translation>显示“%1”停靠面板并将其置于最前</translation>
    </message>
    <message>
        <source>Could not list the sessions: %1</source>
        <translation>无法列出会话：%1</translation>
    </message>
    <message>
        <source>&amp;Layout</source>
        <translation>布局(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>Put every dock back where it starts, sized to this window</source>
        <translation>将所有停靠面板放回初始位置，并按当前窗口调整大小</translation>
    </message>
    <message>
        <source>No session open. File › New Session (Ctrl+N) starts one in a folder of your choice; the Sessions dock opens an earlier one.</source>
        <translation>未打开会话。通过“文件 › 新建会话”（Ctrl+N）可在你选择的文件夹中开始一个会话；在“会话”停靠面板中可打开以前的会话。</translation>
    </message>
    <message>
        <source>This session has no messages yet. Write what the agent should do in the box below and press Ctrl+Enter; type / for commands such as /compact.

As it works, the timeline, the compactions and the context it sends fill the docks.</source>
        <translation>此会话还没有消息。在下方输入框中写下智能体要做的事，然后按 Ctrl+Enter；输入 / 可使用 /compact 等命令。

智能体工作时，时间线、压缩记录和它发送的上下文会陆续显示在各停靠面板中。</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Compare Policies...</source>
        <translation>比较策略(&amp;C)...</translation>
    </message>
    <message>
        <source>Replay a grid of policies over the open session and compare what each loses and costs</source>
        <translation>在打开的会话上重放一组策略，比较各自的损失与成本</translation>
    </message>
    <message>
        <source>The proxy could not record a request: %1</source>
        <translation>代理无法记录请求：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) kept in the demo&apos;s database by an older Waterline moved to your sessions.</source>
        <translation>
            <numerusform>旧版 Waterline 保存在演示数据库中的 %n 个会话已移到您的会话中。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n import(s) interrupted in an earlier run removed; import the file again to have it.</source>
        <translation>
            <numerusform>已删除 %n 个在上次运行中中断的导入；如需保留，请重新导入该文件。</numerusform>
        </translation>
    </message>
    <message>
        <source>The demo is read-only and keeps nothing you do. File › New Session (Ctrl+N) starts a session of your own; File › Import Transcript adds another agent&apos;s.</source>
        <translation>演示是只读的，不会保存您的任何操作。文件 › 新建会话（Ctrl+N）开始您自己的会话；文件 › 导入记录可添加其他智能体的会话。</translation>
    </message>
</context>
<context>
    <name>wl::MessagePinMenu</name>
    <message>
        <source>Unpin Message</source>
        <translation>取消固定消息</translation>
    </message>
    <message>
        <source>Pin Message</source>
        <translation>固定消息</translation>
    </message>
    <message>
        <source>Pin Selection...</source>
        <translation>固定所选内容...</translation>
    </message>
    <message>
        <source>its text</source>
        <translation>其文本</translation>
    </message>
    <message>
        <source>the arguments of %1</source>
        <translation>%1 的参数</translation>
    </message>
    <message>
        <source>its text and the arguments of %1</source>
        <translation>其文本以及 %1 的参数</translation>
    </message>
    <message>
        <source>Pin Message: %1, %2 tokens</source>
        <translation>固定消息：%1，%2 个 token</translation>
    </message>
    <message>
        <source>Keep this message verbatim in every request (what it pins and the tokens it adds to each request are in the label); compaction never summarises or offloads it</source>
        <translation>在每个请求中原样保留此消息（固定的内容及其为每个请求增加的 token 数见标签）；压缩永远不会对其进行摘要或卸载</translation>
    </message>
</context>
<context>
    <name>wl::Migrations</name>
    <message>
        <source>cannot read the schema version</source>
        <translation>无法读取数据库结构版本</translation>
    </message>
    <message>
        <source>schema version %1 cannot be upgraded to %2</source>
        <translation>数据库结构版本 %1 无法升级到 %2</translation>
    </message>
    <message>
        <source>migration to schema %1 failed: %2</source>
        <translation>迁移到数据库结构版本 %1 失败：%2</translation>
    </message>
</context>
<context>
    <name>wl::ModelDiscovery</name>
    <message>
        <source>the model list is not {&quot;data&quot;: [...]}: %1</source>
        <translation>模型列表不是 {&quot;data&quot;: [...]} 格式：%1</translation>
    </message>
    <message>
        <source>The server has no model list at %1 (HTTP 404).</source>
        <translation>服务器在 %1 处没有模型列表（HTTP 404）。</translation>
    </message>
</context>
<context>
    <name>wl::NewSessionDialog</name>
    <message>
        <source>Compaction spec defaults</source>
        <translation>压缩规范默认值</translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>The folder the agent works in</source>
        <translation>智能体工作的文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>The folder&apos;s name unless you give one</source>
        <translation>未填写时使用文件夹名称</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>&amp;Workspace:</source>
        <translation>工作区(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation>提供商(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Compaction:</source>
        <translation>压缩策略(&amp;C)：</translation>
    </message>
    <message>
        <source>&amp;Start Session</source>
        <translation>开始会话(&amp;S)</translation>
    </message>
    <message>
        <source>Choose the folder the agent works in</source>
        <translation>选择智能体工作的文件夹</translation>
    </message>
    <message>
        <source>%1 is not a folder</source>
        <translation>%1 不是文件夹</translation>
    </message>
    <message>
        <source>Window %1 tokens · warn at %2&#xa0;%, soft %3&#xa0;%, full %4&#xa0;%, emergency %5&#xa0;% · last %6 messages kept</source>
        <translation>窗口 %1 个 token · 预警 %2%，轻度 %3%，完全 %4%，紧急 %5% · 保留最后 %6 条消息</translation>
    </message>
</context>
<context>
    <name>wl::OffloadListModel</name>
    <message>
        <source>Tool time</source>
        <translation>工具执行时</translation>
    </message>
    <message>
        <source>Compaction</source>
        <translation>压缩时</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Call ID</source>
        <translation>调用 ID</translation>
    </message>
    <message>
        <source>Gate</source>
        <translation>关口</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行数</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Read Back</source>
        <translation>回读次数</translation>
    </message>
    <message>
        <source>The tool whose result was offloaded</source>
        <translation>结果被卸载的工具</translation>
    </message>
    <message>
        <source>The tool call the result answers</source>
        <translation>该结果所回应的工具调用</translation>
    </message>
    <message>
        <source>When it was offloaded: as the tool finished (gate 1) or during a compaction (gate 2)</source>
        <translation>卸载时机：工具完成时（关口 1）或压缩期间（关口 2）</translation>
    </message>
    <message>
        <source>Size of the original result</source>
        <translation>原始结果的大小</translation>
    </message>
    <message>
        <source>Lines in the original result</source>
        <translation>原始结果的行数</translation>
    </message>
    <message>
        <source>When the result was offloaded</source>
        <translation>结果被卸载的时间</translation>
    </message>
    <message>
        <source>How many times the agent read the file back</source>
        <translation>智能体回读该文件的次数</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>What the tool was asked for: the file it read or wrote, the command it ran</source>
        <translation>工具被要求处理的对象：它读取或写入的文件、它运行的命令</translation>
    </message>
    <message>
        <source>Emergency cut</source>
        <translation>紧急截断</translation>
    </message>
</context>
<context>
    <name>wl::OffloadStore</name>
    <message>
        <source>not offloaded: cannot create the folder %1: a file with that name is in the way</source>
        <translation>未卸载：无法创建文件夹 %1：已有同名文件</translation>
    </message>
    <message>
        <source>not offloaded: cannot create the folder %1</source>
        <translation>未卸载：无法创建文件夹 %1</translation>
    </message>
    <message>
        <source>not offloaded: the message has no tool call id</source>
        <translation>未卸载：该消息没有工具调用 ID</translation>
    </message>
    <message>
        <source>not offloaded: the result of call %1 is already a placeholder</source>
        <translation>未卸载：调用 %1 的结果已经是占位符</translation>
    </message>
    <message>
        <source>not offloaded: the session id &quot;%1&quot; cannot be used in a file name</source>
        <translation>未卸载：会话 ID &quot;%1&quot; 不能用作文件名</translation>
    </message>
    <message>
        <source>not offloaded: the workspace folder &quot;%1&quot; does not exist</source>
        <translation>未卸载：工作区文件夹 &quot;%1&quot; 不存在</translation>
    </message>
    <message>
        <source>not offloaded: the offload folder %1 lies outside the workspace</source>
        <translation>未卸载：卸载文件夹 %1 位于工作区之外</translation>
    </message>
    <message>
        <source>not offloaded: %1 exists and is not a regular file</source>
        <translation>未卸载：%1 已存在且不是普通文件</translation>
    </message>
    <message>
        <source>not offloaded: cannot read the existing file %1: %2</source>
        <translation>未卸载：无法读取已有文件 %1：%2</translation>
    </message>
    <message>
        <source>not offloaded: cannot write %1: %2</source>
        <translation>未卸载：无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot move %1: not a regular file</source>
        <translation>无法移动 %1：不是普通文件</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot copy %1 to %2: %3</source>
        <translation>无法将 %1 复制到 %2：%3</translation>
    </message>
    <message>
        <source>the session id &quot;%1&quot; cannot be used in a file name</source>
        <translation>会话 ID“%1”不能用作文件名</translation>
    </message>
    <message>
        <source>cannot move the offloaded results: %1 is not a folder inside %2</source>
        <translation>无法移动卸载的结果：%1 不是 %2 中的文件夹</translation>
    </message>
    <message>
        <source>cannot move the offloaded results: %1 is not empty</source>
        <translation>无法移动卸载的结果：%1 不为空</translation>
    </message>
    <message>
        <source>cannot move %1 to %2: %3</source>
        <translation>无法将 %1 移动到 %2：%3</translation>
    </message>
    <message>
        <source>not cut: no workspace folder to keep the whole message %1 in</source>
        <translation>未截断：没有可存放完整消息 %1 的工作区文件夹</translation>
    </message>
    <message>
        <source>not cut: %1 exists and is not a regular file</source>
        <translation>未截断：%1 已存在且不是普通文件</translation>
    </message>
</context>
<context>
    <name>wl::OffloadViewer</name>
    <message>
        <source>Show as Text Anyway</source>
        <translation>仍以文本显示</translation>
    </message>
    <message>
        <source>Load More</source>
        <translation>加载更多</translation>
    </message>
    <message>
        <source>Load All</source>
        <translation>全部加载</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Find…</source>
        <translation>查找…</translation>
    </message>
    <message>
        <source>Wrap</source>
        <translation>换行</translation>
    </message>
    <message>
        <source>Wrap long lines</source>
        <translation>自动换行显示长行</translation>
    </message>
    <message>
        <source>This result looks like binary data (%1), so it is not shown as text.</source>
        <translation>此结果看起来是二进制数据（%1），因此不以文本显示。</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>No result selected</source>
        <translation>未选择结果</translation>
    </message>
    <message>
        <source>Select an offloaded result to see it here.</source>
        <translation>选择一个已卸载的结果，在此处查看。</translation>
    </message>
    <message>
        <source>Binary data, %1</source>
        <translation>二进制数据，%1</translation>
    </message>
    <message>
        <source>Showing all of %1 (%2 lines)</source>
        <translation>已显示全部 %1（%2 行）</translation>
    </message>
    <message>
        <source>Showing the first %1 of %2 (%3 lines so far)</source>
        <translation>已显示 %2 中的前 %1（目前 %3 行）</translation>
    </message>
    <message>
        <source>lines longer than %1 characters are shown broken</source>
        <translation>超过 %1 个字符的行会折断显示</translation>
    </message>
    <message>
        <source>highlighting covers the first %1 characters</source>
        <translation>语法高亮仅覆盖前 %1 个字符</translation>
    </message>
    <message>
        <source>Plain text</source>
        <translation>纯文本</translation>
    </message>
    <message>
        <source>Highlighting: guessed from the file name and the content; pick another here</source>
        <translation>语法高亮：根据文件名和内容推测；可在此处另选</translation>
    </message>
</context>
<context>
    <name>wl::OffloadsPanel</name>
    <message>
        <source>Show in Conversation</source>
        <translation>在对话中显示</translation>
    </message>
    <message>
        <source>Scroll the conversation to the message this result came from</source>
        <translation>将对话滚动到该结果所属的消息</translation>
    </message>
    <message>
        <source>Copy Path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>Copy Call ID</source>
        <translation>复制调用 ID</translation>
    </message>
    <message>
        <source>Filter by tool, file, command or call ID</source>
        <translation>按工具、文件、命令或调用 ID 筛选</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>List every offloaded result of the session again</source>
        <translation>重新列出本会话所有已卸载的结果</translation>
    </message>
    <message>
        <source>The %1 compaction before request %2 offloaded nothing.</source>
        <translation>请求 %2 之前的%1级压缩没有卸载任何内容。</translation>
    </message>
    <message>
        <source>Results the %1 compaction before request %2 offloaded: %3.</source>
        <translation>请求 %2 之前的%1级压缩卸载的结果：%3。</translation>
    </message>
</context>
<context>
    <name>wl::PinFactTool</name>
    <message>
        <source>pin_fact: the text is empty</source>
        <translation>pin_fact：文本为空</translation>
    </message>
    <message>
        <source>pin_fact: the text has %1 characters; a pin holds at most %2</source>
        <translation>pin_fact：文本有 %1 个字符；一个固定项最多容纳 %2 个</translation>
    </message>
    <message>
        <source>pin_fact: this session cannot pin</source>
        <translation>pin_fact：此会话无法固定</translation>
    </message>
    <message>
        <source>pin_fact: %1</source>
        <translation>pin_fact：%1</translation>
    </message>
</context>
<context>
    <name>wl::PinSelectionDialog</name>
    <message>
        <source>Pin a Selection of Message %1</source>
        <translation>固定消息 %1 的所选内容</translation>
    </message>
    <message>
        <source>&amp;Pin Selection</source>
        <translation>固定所选内容(&amp;P)</translation>
    </message>
    <message>
        <source>Select the part to keep verbatim in every request:</source>
        <translation>选择要在每个请求中原样保留的部分：</translation>
    </message>
</context>
<context>
    <name>wl::PinnedSection</name>
    <message>
        <source>Not pinned: the pins would take %1 tokens, %2 more than the budget of %3 tokens (the Warn threshold of the window minus the system prompt, tool schemas and reserved output). Unpin something or pin less.</source>
        <translation>未固定：固定项将占用 %1 个令牌，比预算 %3 个令牌多 %2 个（预算为窗口的 Warn 阈值减去系统提示词、工具模式和预留输出）。请取消固定某些内容或减少固定。</translation>
    </message>
</context>
<context>
    <name>wl::PinsBinding</name>
    <message>
        <source>Could not pin</source>
        <translation>无法固定</translation>
    </message>
    <message>
        <source>Could not unpin</source>
        <translation>无法取消固定</translation>
    </message>
</context>
<context>
    <name>wl::PinsModel</name>
    <message>
        <source>Message %1</source>
        <translation>消息 %1</translation>
    </message>
    <message>
        <source>Selection of message %1</source>
        <translation>消息 %1 的所选内容</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>%1, proposed by the assistant</source>
        <translation>%1，由助手建议</translation>
    </message>
    <message>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Unpin: the next request goes without it</source>
        <translation>取消固定：下一个请求将不包含它</translation>
    </message>
    <message>
        <source>%1

Why: %2</source>
        <translation>%1

原因：%2</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>已固定</translation>
    </message>
</context>
<context>
    <name>wl::PinsPanel</name>
    <message>
        <source>Add &amp;Note...</source>
        <translation>添加备注(&amp;N)...</translation>
    </message>
    <message>
        <source>Pinned facts</source>
        <translation>固定的事实</translation>
    </message>
    <message>
        <source>Pin a note of your own, such as &quot;never touch the migrations folder&quot;</source>
        <translation>固定一条您自己的备注，例如“永远不要改动 migrations 文件夹”</translation>
    </message>
    <message>
        <source>Pins: open a session to pin what must never be compacted.</source>
        <translation>固定项：打开一个会话以固定绝不能被压缩的内容。</translation>
    </message>
    <message>
        <source>Nothing pinned. Right-click a message to pin it, or add a note.</source>
        <translation>没有固定内容。右键单击消息即可固定，或添加备注。</translation>
    </message>
    <message numerus="yes">
        <source>%n pin(s), %1 tokens, kept verbatim in every request.</source>
        <translation>
            <numerusform>%n 个固定项，%1 个令牌，在每个请求中原样保留。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pin(s), %1 of %2 tokens, kept verbatim in every request.</source>
        <translation>
            <numerusform>%n 个固定项，%1 / %2 个令牌，在每个请求中原样保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>Add a Pinned Note</source>
        <translation>添加固定备注</translation>
    </message>
    <message>
        <source>Kept verbatim in every request, never compacted:</source>
        <translation>在每个请求中原样保留，永不压缩：</translation>
    </message>
</context>
<context>
    <name>wl::PolicyScoreView</name>
    <message>
        <source>What the policy keeps and costs</source>
        <translation>策略保留了什么、花费多少</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recorded&lt;/b&gt;</source>
        <translation>&lt;b&gt;记录&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;What-if&lt;/b&gt;</source>
        <translation>&lt;b&gt;假设&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <source>Of the facts each request&apos;s answer used (an instruction, a file, a command&apos;s outcome, a name), the share its view still held: verbatim, in the checkpoint, or in an offloaded file it names</source>
        <translation>每个请求的回答所用到的事实（一条指令、一个文件、一条命令的结果、一个名称）中，该请求的视图仍然保留的比例：原文保留、在检查点中，或在它指明的卸载文件中</translation>
    </message>
    <message>
        <source>Facts needed</source>
        <translation>所需事实</translation>
    </message>
    <message>
        <source>Facts established before a request that its answer then used, over all requests</source>
        <translation>在某个请求之前已确立、随后被其回答用到的事实，所有请求合计</translation>
    </message>
    <message>
        <source>Facts lost</source>
        <translation>丢失的事实</translation>
    </message>
    <message>
        <source>Needed facts the view no longer held in any form</source>
        <translation>视图中已不再以任何形式保留的所需事实</translation>
    </message>
    <message>
        <source>Input billed in full</source>
        <translation>按全价计费的输入</translation>
    </message>
    <message>
        <source>Prompt tokens a provider bills at the full input price</source>
        <translation>提供商按完整输入价格计费的提示 token</translation>
    </message>
    <message>
        <source>Cache writes</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <source>Prompt tokens written to the provider&apos;s prompt cache (Anthropic bills them at 1.25 times input)</source>
        <translation>写入提供商提示缓存的提示 token（Anthropic 按输入价格的 1.25 倍计费）</translation>
    </message>
    <message>
        <source>Cache reads</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <source>Prompt tokens read from the prompt cache: the part of a view equal to the previous request&apos;s</source>
        <translation>从提示缓存读取的提示 token：视图中与上一个请求相同的部分</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Requests and summariser calls at the model&apos;s prices (Settings can change them)</source>
        <translation>请求和摘要器调用按模型价格计算（可在设置中修改价格）</translation>
    </message>
    <message>
        <source>Facts the what-if loses; open one to see the request that needed it</source>
        <translation>假设策略会丢失的事实；打开一项即可查看需要它的请求</translation>
    </message>
    <message>
        <source>Scoring the session: finding the facts each request used…</source>
        <translation>正在为会话评分：查找每个请求用到的事实…</translation>
    </message>
    <message>
        <source>Open a session to see what a policy keeps and costs.</source>
        <translation>打开一个会话，查看策略保留了什么、花费多少。</translation>
    </message>
    <message>
        <source>No price is known for the model “%1”: costs are in tokens only.</source>
        <translation>模型“%1”没有已知价格：费用仅以 token 计。</translation>
    </message>
    <message>
        <source>Request %1 used the %2 “%3”; this policy had dropped it</source>
        <translation>请求 %1 用到了 %2“%3”；此策略已将其丢弃</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>…… 还有 %1 项</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
</context>
<context>
    <name>wl::Preflight</name>
    <message>
        <source>invalid policy, nothing compacted: %1</source>
        <translation>策略无效，未进行任何压缩：%1</translation>
    </message>
    <message>
        <source>emergency: the context was at %1% of the window; compacted without an LLM call</source>
        <translation>紧急：上下文已达窗口的 %1%；在不调用 LLM 的情况下完成了压缩</translation>
    </message>
    <message>
        <source>still at or above the full threshold: only the tail is left</source>
        <translation>仍处于或高于完全压缩阈值：只剩下尾部</translation>
    </message>
    <message>
        <source>summary failed: %1</source>
        <translation>摘要失败：%1</translation>
    </message>
    <message>
        <source>cancelled before the summary arrived</source>
        <translation>摘要返回前已被取消</translation>
    </message>
    <message>
        <source>the summary was rejected in review at the %1 tier; it is drafted again at the next tier</source>
        <translation>摘要在 %1 层级的审阅中被拒绝；将在下一层级重新起草</translation>
    </message>
    <message>
        <source>emergency: the context was at %1% of the window; masking tool results was enough</source>
        <translation>紧急：上下文已达窗口的 %1%；遮蔽工具结果已足够</translation>
    </message>
    <message>
        <source>not reviewed: the emergency tier does not wait, it committed the extractive checkpoint</source>
        <translation>未审阅：紧急层级不会等待，已提交抽取式检查点</translation>
    </message>
    <message>
        <source>mask: still at %1% of the window after masking, at or above %2%; this strategy writes no summary before Emergency</source>
        <translation>遮蔽：遮蔽后仍占窗口的 %1%，达到或超过 %2%；此策略在 Emergency 之前不写摘要</translation>
    </message>
    <message>
        <source>the summary was rejected in review; the history stays and the next tier tries again</source>
        <translation>摘要在审阅中被拒绝；历史记录保留，由下一层级重试</translation>
    </message>
    <message>
        <source>cancelled while the summary waited for review</source>
        <translation>在摘要等待审阅时已取消</translation>
    </message>
    <message numerus="yes">
        <source>cut %n message(s) to their head and end; the whole of each is in its file</source>
        <translation>
            <numerusform>已将 %n 条消息截断为开头和结尾；每条的完整内容保存在各自的文件中</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>replaced the earlier context (%n message(s)) by a note naming %1, which holds it whole</source>
        <translation>
            <numerusform>已用一条注记替换先前的上下文（%n 条消息），注记指向保存其完整内容的 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::PriceTableModel</name>
    <message>
        <source>Changed; the published price is %1</source>
        <translation>已修改；公布价格为 %1</translation>
    </message>
    <message>
        <source>Model (prefix)</source>
        <translation>模型（前缀）</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Cached input</source>
        <translation>缓存输入</translation>
    </message>
    <message>
        <source>Cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
</context>
<context>
    <name>wl::PricesPage</name>
    <message>
        <source>What the cost of a run is computed with, in US$ per million tokens: the providers&apos; published prices (their price pages, as published on 2025-11-30), matched by the longest model-name prefix. Change a cell to use your own price; changed cells are shown in bold.</source>
        <translation>计算一次运行费用所用的价格，单位为每百万 token 的美元：各提供商公布的价格（取自其价格页面，2025-11-30 公布），按最长的模型名前缀匹配。修改某个单元格即可使用你自己的价格；修改过的单元格以粗体显示。</translation>
    </message>
    <message>
        <source>&amp;Reset to published prices</source>
        <translation>重置为公布价格(&amp;R)</translation>
    </message>
</context>
<context>
    <name>wl::PrivateFiles</name>
    <message>
        <source>cannot list the folder %1: %2</source>
        <translation>无法列出文件夹 %1：%2</translation>
    </message>
    <message>
        <source>cannot remove the folder %1: %2</source>
        <translation>无法删除文件夹 %1：%2</translation>
    </message>
    <message>
        <source>cannot remove %1: %2</source>
        <translation>无法删除 %1：%2</translation>
    </message>
    <message>
        <source>cannot create the folder %1: a file with that name is in the way</source>
        <translation>无法创建文件夹 %1：已有同名文件</translation>
    </message>
    <message>
        <source>cannot create the folder %1: %2</source>
        <translation>无法创建文件夹 %1：%2</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>无法创建 %1：%2</translation>
    </message>
    <message>
        <source>cannot restrict the permissions of %1</source>
        <translation>无法限制 %1 的权限</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>refusing to remove %1 below %2</source>
        <translation>拒绝删除 %2 下的 %1</translation>
    </message>
    <message>
        <source>not removed: %1 is a symbolic link or not a folder</source>
        <translation>未删除：%1 是符号链接或不是文件夹</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>cannot remove the link %1: %2</source>
        <translation>无法删除链接 %1：%2</translation>
    </message>
</context>
<context>
    <name>wl::PromptInput</name>
    <message>
        <source>Ask the agent… (Ctrl+Enter sends, / for commands)</source>
        <translation>向智能体提问…（Ctrl+Enter 发送，/ 输入命令）</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running request (Esc)</source>
        <translation>停止正在运行的请求（Esc）</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send the prompt (Ctrl+Enter)</source>
        <translation>发送提示词（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Unknown command %1. Commands: %2. Start with a space to send it as text.</source>
        <translation>未知命令 %1。可用命令：%2。以空格开头即可作为普通文本发送。</translation>
    </message>
    <message>
        <source>The agent is still working: stop it (Esc) or wait before sending.</source>
        <translation>智能体仍在工作：请先停止它（Esc）或等待后再发送。</translation>
    </message>
</context>
<context>
    <name>wl::ProviderConnection</name>
    <message>
        <source>This session ran on the provider profile “%1”, which no longer exists; it uses the default profile “%2”.</source>
        <translation>此会话原先使用的提供商配置“%1”已不存在；现改用默认配置“%2”。</translation>
    </message>
    <message>
        <source>The new provider is used when the agent has finished.</source>
        <translation>新的提供商将在智能体完成后启用。</translation>
    </message>
    <message>
        <source>the provider has no valid address</source>
        <translation>该提供商没有有效的地址</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>未检查</translation>
    </message>
    <message>
        <source>checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>可访问</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>streaming</source>
        <translation>流式传输中</translation>
    </message>
    <message>
        <source>retrying</source>
        <translation>正在重试</translation>
    </message>
</context>
<context>
    <name>wl::ProviderProfile</name>
    <message>
        <source>unknown protocol &quot;%1&quot; (expected openai-chat or anthropic)</source>
        <translation>未知协议 &quot;%1&quot;（应为 openai-chat 或 anthropic）</translation>
    </message>
    <message>
        <source>the base URL &quot;%1&quot; is not an http(s) URL</source>
        <translation>基础 URL &quot;%1&quot; 不是 http(s) URL</translation>
    </message>
    <message>
        <source>the base URL must not carry a user name or password</source>
        <translation>基础 URL 中不能包含用户名或密码</translation>
    </message>
    <message>
        <source>the profile names no model</source>
        <translation>该配置未指定模型</translation>
    </message>
    <message>
        <source>keyRef looks like an API key itself; store the key in the keychain or an environment variable and put its name here</source>
        <translation>keyRef 看起来本身就是一个 API 密钥；请把密钥保存在密钥环或环境变量中，并在此处填写其名称</translation>
    </message>
</context>
<context>
    <name>wl::ProviderProfilesModel</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>%1 at %2, model %3</source>
        <translation>%1，地址 %2，模型 %3</translation>
    </message>
    <message>
        <source>default profile</source>
        <translation>默认配置</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新配置</translation>
    </message>
    <message>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <source>The profile needs a name.</source>
        <translation>配置需要名称。</translation>
    </message>
    <message>
        <source>Another profile is also called &quot;%1&quot;.</source>
        <translation>另一个配置也叫“%1”。</translation>
    </message>
    <message>
        <source>The profile is incomplete.</source>
        <translation>配置不完整。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Unnamed profile</source>
        <translation>未命名配置</translation>
    </message>
</context>
<context>
    <name>wl::ProvidersPage</name>
    <message>
        <source>The key could not be stored: %1</source>
        <translation>无法保存密钥：%1</translation>
    </message>
    <message>
        <source>Connected: the model answered in %1 ms.</source>
        <translation>已连接：模型在 %1 毫秒内作出了回答。</translation>
    </message>
    <message>
        <source>Connected: the model answered “%1” in %2 ms.</source>
        <translation>已连接：模型在 %2 毫秒内回答了“%1”。</translation>
    </message>
    <message>
        <source>Test cancelled.</source>
        <translation>测试已取消。</translation>
    </message>
    <message>
        <source>Models found: %1.</source>
        <translation>找到的模型：%1。</translation>
    </message>
    <message>
        <source>%1 is not among them.</source>
        <translation>%1 不在其中。</translation>
    </message>
    <message>
        <source>Could not list the models: %1</source>
        <translation>无法列出模型：%1</translation>
    </message>
    <message>
        <source>Discovery cancelled.</source>
        <translation>模型发现已取消。</translation>
    </message>
    <message>
        <source>Pro&amp;files:</source>
        <translation>配置(&amp;F)：</translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation>添加(&amp;D)</translation>
    </message>
    <message>
        <source>Add a profile for a local OpenAI-compatible server</source>
        <translation>为本地兼容 OpenAI 的服务器添加配置</translation>
    </message>
    <message>
        <source>Dupli&amp;cate</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Remo&amp;ve</source>
        <translation>删除(&amp;V)</translation>
    </message>
    <message>
        <source>Make defa&amp;ult</source>
        <translation>设为默认(&amp;U)</translation>
    </message>
    <message>
        <source>New sessions use the default profile</source>
        <translation>新会话使用默认配置</translation>
    </message>
    <message>
        <source>Summaries &amp;written by:</source>
        <translation>摘要生成者(&amp;W)：</translation>
    </message>
    <message>
        <source>The profile that writes compaction summaries; a small, fast model is enough</source>
        <translation>用于编写压缩摘要的配置；小而快的模型就足够了</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>OpenAI-compatible (Ollama, llama.cpp, vLLM, OpenAI)</source>
        <translation>兼容 OpenAI（Ollama、llama.cpp、vLLM、OpenAI）</translation>
    </message>
    <message>
        <source>Anthropic Messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <source>&amp;Protocol:</source>
        <translation>协议(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>D&amp;iscover models</source>
        <translation>发现模型(&amp;I)</translation>
    </message>
    <message>
        <source>Ask the server which models it offers</source>
        <translation>询问服务器提供哪些模型</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Conte&amp;xt window:</source>
        <translation>上下文窗口(&amp;X)：</translation>
    </message>
    <message>
        <source>Unknown (4,096 used)</source>
        <translation>未知（按 4,096 计）</translation>
    </message>
    <message>
        <source>Max &amp;output:</source>
        <translation>最大输出(&amp;O)：</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>无密钥</translation>
    </message>
    <message>
        <source>Environment variable</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <source>System keyring</source>
        <translation>系统密钥环</translation>
    </message>
    <message>
        <source>The name of the environment variable or keyring entry; never the key itself</source>
        <translation>环境变量或密钥环条目的名称；切勿填写密钥本身</translation>
    </message>
    <message>
        <source>&amp;Key source:</source>
        <translation>密钥来源(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Store in keyring</source>
        <translation>保存到密钥环(&amp;S)</translation>
    </message>
    <message>
        <source>API ke&amp;y:</source>
        <translation>API 密钥(&amp;Y)：</translation>
    </message>
    <message>
        <source>Paste a key to store it in the keyring (never in the settings file)</source>
        <translation>粘贴密钥以将其保存到密钥环（绝不会写入设置文件）</translation>
    </message>
    <message>
        <source>Paste a key to try it (kept in memory only)</source>
        <translation>粘贴密钥以试用（仅保存在内存中）</translation>
    </message>
    <message>
        <source>No system keyring is available: use an environment variable</source>
        <translation>没有可用的系统密钥环：请使用环境变量</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>测试连接(&amp;T)</translation>
    </message>
    <message>
        <source>Send a tiny request to the model and report how it went</source>
        <translation>向模型发送一个极小的请求，并报告结果</translation>
    </message>
    <message>
        <source>Cancel &amp;test</source>
        <translation>取消测试(&amp;T)</translation>
    </message>
    <message>
        <source>Cancel d&amp;iscovery</source>
        <translation>取消发现(&amp;I)</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>新配置</translation>
    </message>
    <message>
        <source>The default profile</source>
        <translation>默认配置</translation>
    </message>
    <message>
        <source>Name a model to look up its context window.</source>
        <translation>填写模型名称以查询其上下文窗口。</translation>
    </message>
    <message>
        <source>%1 is not in the model table: enter its context window (8,192 tokens are assumed otherwise).</source>
        <translation>%1 不在模型表中：请填写其上下文窗口（否则按 8,192 个 token 计）。</translation>
    </message>
    <message>
        <source>From the model table: %1 tokens of context, %2 of output.</source>
        <translation>来自模型表：上下文 %1 个 token，输出 %2 个。</translation>
    </message>
    <message>
        <source>Set by hand; the model table says %1 tokens.</source>
        <translation>手动设置；模型表中为 %1 个 token。</translation>
    </message>
    <message>
        <source>Key: from the system keyring (entry %1).</source>
        <translation>密钥：来自系统密钥环（条目 %1）。</translation>
    </message>
    <message>
        <source>Key: from the environment variable %1.</source>
        <translation>密钥：来自环境变量 %1。</translation>
    </message>
    <message>
        <source>Key: none is sent, which suits a local server.</source>
        <translation>密钥：不发送密钥，适用于本地服务器。</translation>
    </message>
    <message>
        <source>Key: not set. Paste it below and store it in the system keyring, or set the environment variable %1 before starting Waterline.</source>
        <translation>密钥：未设置。请在下方粘贴并保存到系统密钥环，或在启动 Waterline 前设置环境变量 %1。</translation>
    </message>
    <message>
        <source>Key: not set. No system keyring is available: set the environment variable %1 before starting Waterline.</source>
        <translation>密钥：未设置。没有可用的系统密钥环：请在启动 Waterline 前设置环境变量 %1。</translation>
    </message>
    <message>
        <source>Storing the key in the system keyring…</source>
        <translation>正在将密钥保存到系统密钥环…</translation>
    </message>
    <message>
        <source>Fix the profile first: %1</source>
        <translation>请先修正配置：%1</translation>
    </message>
    <message>
        <source>Sending a short request to %1…</source>
        <translation>正在向 %1 发送一个简短请求…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>Enter the server&apos;s base URL first.</source>
        <translation>请先填写服务器的基础 URL。</translation>
    </message>
    <message>
        <source>Asking the server for its models…</source>
        <translation>正在向服务器查询其模型…</translation>
    </message>
    <message>
        <source>This profile cannot be saved yet: %1</source>
        <translation>此配置暂时无法保存：%1</translation>
    </message>
    <message>
        <source>%1 (model table)</source>
        <translation>%1（模型表）</translation>
    </message>
</context>
<context>
    <name>wl::ProxyPanel</name>
    <message>
        <source>The provider the proxy forwards to, such as https://api.anthropic.com or https://api.openai.com</source>
        <translation>代理转发到的提供方，例如 https://api.anthropic.com 或 https://api.openai.com</translation>
    </message>
    <message>
        <source>any free port</source>
        <translation>任意空闲端口</translation>
    </message>
    <message>
        <source>The port on 127.0.0.1 the proxy listens on</source>
        <translation>代理在 127.0.0.1 上监听的端口</translation>
    </message>
    <message>
        <source>Start the proxy to get its address</source>
        <translation>启动代理以获取其地址</translation>
    </message>
    <message>
        <source>Give the agent this base URL: the token in it keeps other local users out</source>
        <translation>将此基础 URL 提供给智能体：其中的令牌可阻止其他本地用户访问</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the base URL</source>
        <translation>复制基础 URL</translation>
    </message>
    <message>
        <source>Copy the settings shown</source>
        <translation>复制所示设置</translation>
    </message>
    <message>
        <source>&amp;Upstream:</source>
        <translation>上游(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>启动(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the proxy: agents pointed at it lose their provider</source>
        <translation>停止代理：指向它的智能体将失去其提供方</translation>
    </message>
    <message>
        <source>Start the proxy on 127.0.0.1</source>
        <translation>在 127.0.0.1 上启动代理</translation>
    </message>
    <message>
        <source>Start the proxy: the settings to paste appear here.</source>
        <translation>启动代理：要粘贴的设置将显示在此处。</translation>
    </message>
    <message>
        <source>Listening on 127.0.0.1:%1, forwarding to %2.</source>
        <translation>正在监听 127.0.0.1:%1，转发到 %2。</translation>
    </message>
    <message>
        <source>The proxy did not start: %1</source>
        <translation>代理未能启动：%1</translation>
    </message>
    <message>
        <source>Stopped. Agents pointed at the proxy get their answers through it, unchanged, and each request appears in the table.</source>
        <translation>已停止。指向代理的智能体会通过它原样获得回答，每个请求都会显示在表格中。</translation>
    </message>
    <message>
        <source>&amp;Compact requests with the Thresholds dock&apos;s policy</source>
        <translation>按“阈值”面板的策略压缩请求(&amp;C)</translation>
    </message>
    <message>
        <source>Compact mode: Waterline&apos;s compaction (extractive summaries, offloaded results) runs on each request before it goes to the provider, at the window and thresholds the sliders show. The recorded session holds the agent&apos;s view and Waterline&apos;s compactions. Off: requests pass unchanged.</source>
        <translation>压缩模式：每个请求在发往提供商之前先经过 Waterline 的压缩（抽取式摘要、卸载结果），使用滑块所示的窗口与阈值。录制的会话同时保存智能体的视图和 Waterline 的压缩。关闭时请求原样转发。</translation>
    </message>
    <message>
        <source>Requests are compacted to a %1-token window first.</source>
        <translation>请求会先被压缩到 %1 个 token 的窗口。</translation>
    </message>
</context>
<context>
    <name>wl::ProxySnippets</name>
    <message>
        <source>Claude Code</source>
        <translation>Claude Code</translation>
    </message>
    <message>
        <source>Codex</source>
        <translation>Codex</translation>
    </message>
    <message>
        <source>SDKs</source>
        <translation>SDK</translation>
    </message>
    <message>
        <source># Claude Code keeps its own key or login.
</source>
        <translation># Claude Code 使用其自己的密钥或登录。
</translation>
    </message>
    <message>
        <source># In ~/.codex/config.toml; then run: %1
</source>
        <translation># 在 ~/.codex/config.toml 中；然后运行：%1
</translation>
    </message>
    <message>
        <source># Read by the OpenAI and Anthropic SDKs.
</source>
        <translation># 由 OpenAI 和 Anthropic SDK 读取。
</translation>
    </message>
</context>
<context>
    <name>wl::ProxyTrafficModel</name>
    <message>
        <source>From the whole request read to the first byte of the answer sent back</source>
        <translation>从读完整个请求到发回回答的第一个字节</translation>
    </message>
    <message>
        <source>From the whole request read to the last byte of the answer sent back</source>
        <translation>从读完整个请求到发回回答的最后一个字节</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>First byte (ms)</source>
        <translation>首字节 (ms)</translation>
    </message>
    <message>
        <source>Total (ms)</source>
        <translation>总计 (ms)</translation>
    </message>
</context>
<context>
    <name>wl::SandboxPolicy</name>
    <message>
        <source>&apos;%1&apos; must be true or false</source>
        <translation>&apos;%1&apos; 必须为 true 或 false</translation>
    </message>
    <message>
        <source>&apos;environment&apos; must be a list of variable names</source>
        <translation>&apos;environment&apos; 必须是变量名列表</translation>
    </message>
</context>
<context>
    <name>wl::SessionExport</name>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a string</source>
        <translation>&quot;%1&quot; 必须是字符串</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be an ISO 8601 time</source>
        <translation>&quot;%1&quot; 必须是 ISO 8601 时间</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be an object</source>
        <translation>&quot;%1&quot; 必须是对象</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a tier name</source>
        <translation>&quot;%1&quot; 不是层级名称</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a readable Waterline session export: %2</source>
        <translation>%1 不是可读取的 Waterline 会话导出文件：%2</translation>
    </message>
    <message>
        <source>line %1: data after the end line</source>
        <translation>第 %1 行：结束行之后还有数据</translation>
    </message>
    <message>
        <source>line %1: not a JSON object</source>
        <translation>第 %1 行：不是 JSON 对象</translation>
    </message>
    <message>
        <source>line 1 is not a &quot;%1&quot; header</source>
        <translation>第 1 行不是 &quot;%1&quot; 头部</translation>
    </message>
    <message>
        <source>written by a newer Waterline (export format %1); this version reads up to %2</source>
        <translation>由更新版本的 Waterline 写入（导出格式 %1）；此版本最多只能读取 %2</translation>
    </message>
    <message>
        <source>line %1: message seq %2 where %3 was expected</source>
        <translation>第 %1 行：消息序号为 %2，应为 %3</translation>
    </message>
    <message>
        <source>line %1: checkpoint ordinal %2 where %3 was expected</source>
        <translation>第 %1 行：检查点序号为 %2，应为 %3</translation>
    </message>
    <message>
        <source>line %1: the checkpoint covers messages that are not in the file</source>
        <translation>第 %1 行：检查点覆盖了文件中不存在的消息</translation>
    </message>
    <message>
        <source>line %1: the offload names message %2, which is not in the file</source>
        <translation>第 %1 行：卸载项引用了消息 %2，但文件中没有该消息</translation>
    </message>
    <message>
        <source>line %1: the view has no message list</source>
        <translation>第 %1 行：视图没有消息列表</translation>
    </message>
    <message>
        <source>line %1: a second header</source>
        <translation>第 %1 行：出现了第二个头部</translation>
    </message>
    <message>
        <source>line %1: unknown line type &quot;%2&quot;</source>
        <translation>第 %1 行：未知的行类型 &quot;%2&quot;</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <source>the file ends early (no end line): it was cut off</source>
        <translation>文件提前结束（没有结束行）：内容被截断了</translation>
    </message>
    <message>
        <source>the end line announces %1 %2 but the file holds %3</source>
        <translation>结束行声明了 %1 个 %2，但文件中有 %3 个</translation>
    </message>
    <message>
        <source>message %1 names request %2, which is not in the file</source>
        <translation>消息 %1 引用了请求 %2，但文件中没有该请求</translation>
    </message>
    <message>
        <source>line %1: &quot;tool_schemas&quot; must be an array</source>
        <translation>第 %1 行：&quot;tool_schemas&quot; 必须是数组</translation>
    </message>
    <message>
        <source>line %1: the header has no valid version: %2</source>
        <translation>第 %1 行：头部没有有效的版本号：%2</translation>
    </message>
    <message>
        <source>line %1: policy: %2</source>
        <translation>第 %1 行：策略：%2</translation>
    </message>
    <message>
        <source>line %1: request index %2 is repeated</source>
        <translation>第 %1 行：请求索引 %2 重复</translation>
    </message>
    <message>
        <source>line %1: request %2 names checkpoint %3, which is not in the file</source>
        <translation>第 %1 行：请求 %2 引用了检查点 %3，但文件中没有该检查点</translation>
    </message>
    <message>
        <source>line %1: a pin of unknown kind &quot;%2&quot; or source &quot;%3&quot;</source>
        <translation>第 %1 行：固定项的种类“%2”或来源“%3”未知</translation>
    </message>
    <message>
        <source>line %1: the pin names a message that is not in the file</source>
        <translation>第 %1 行：固定项指向的消息不在文件中</translation>
    </message>
    <message>
        <source>line %1: the pin has no text</source>
        <translation>第 %1 行：固定项没有文本</translation>
    </message>
    <message>
        <source>&quot;versions&quot; must be an array</source>
        <translation>&quot;versions&quot; 必须是数组</translation>
    </message>
    <message>
        <source>a checkpoint version must be an object</source>
        <translation>检查点版本必须是对象</translation>
    </message>
    <message>
        <source>version %1 of the checkpoint does not begin with [Context Compaction]</source>
        <translation>检查点的第 %1 版不是以 [Context Compaction] 开头</translation>
    </message>
    <message>
        <source>cannot export: message %1 (id %2) does not come after id %3, so the views cannot be written in file order</source>
        <translation>无法导出：消息 %1（ID %2）不在 ID %3 之后，因此无法按文件顺序写出视图</translation>
    </message>
    <message>
        <source>line %1: &quot;arguments&quot; must be a list of strings</source>
        <translation>第 %1 行：&quot;arguments&quot; 必须是字符串列表</translation>
    </message>
    <message>
        <source>line %1: the view of request %2 is damaged or names a message that is not in the file: %3</source>
        <translation>第 %1 行：请求 %2 的视图已损坏，或引用了文件中不存在的消息：%3</translation>
    </message>
</context>
<context>
    <name>wl::SessionLifecycle</name>
    <message>
        <source>The demo was cancelled.</source>
        <translation>演示已取消。</translation>
    </message>
    <message>
        <source>No session database is open.</source>
        <translation>没有打开的会话数据库。</translation>
    </message>
    <message>
        <source>The shown session has no checkpoint %1.</source>
        <translation>当前显示的会话中没有检查点 %1。</translation>
    </message>
    <message>
        <source>The demo session is read-only: it is rebuilt with each new version of the demo, so nothing is stored in it.</source>
        <translation>演示会话是只读的：每个新版本的演示都会重建它，因此不会在其中存储任何内容。</translation>
    </message>
</context>
<context>
    <name>wl::SessionListModel</name>
    <message>
        <source>Untitled session</source>
        <translation>未命名会话</translation>
    </message>
    <message>
        <source>%1
Workspace: %2
%3 messages, %4 requests
Id: %5</source>
        <translation>%1
工作区：%2
%3 条消息，%4 个请求
ID：%5</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Last activity</source>
        <translation>最近活动</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <source>imported, read-only</source>
        <translation>已导入，只读</translation>
    </message>
    <message>
        <source>%1
Imported and read-only: Continue… chooses where an agent works on it
%2 messages, %3 requests
Id: %4</source>
        <translation>%1
已导入，只读：“继续…”可选择智能体在何处处理它
%2 条消息，%3 个请求
ID：%4</translation>
    </message>
    <message>
        <source>recorded by the proxy, read-only</source>
        <translation>代理录制，只读</translation>
    </message>
    <message>
        <source>%1
Recorded from an agent&apos;s traffic through the proxy, read-only: Continue… chooses where an agent works on it
%2 messages, %3 requests
Id: %4</source>
        <translation>%1
经代理从智能体流量录制，只读：“继续…”可选择智能体在何处处理它
%2 条消息，%3 个请求
ID：%4</translation>
    </message>
</context>
<context>
    <name>wl::SessionStore</name>
    <message>
        <source>cannot store a message: %1</source>
        <translation>无法保存消息：%1</translation>
    </message>
    <message>
        <source>cannot store request %1: %2</source>
        <translation>无法保存请求 %1：%2</translation>
    </message>
    <message>
        <source>cannot store a checkpoint: %1</source>
        <translation>无法保存检查点：%1</translation>
    </message>
    <message>
        <source>cannot store a checkpoint: it covers message %1, which is not in this session</source>
        <translation>无法保存检查点：它覆盖的消息 %1 不属于本会话</translation>
    </message>
    <message>
        <source>cannot store the offload of message %1: %2</source>
        <translation>无法保存消息 %1 的卸载信息：%2</translation>
    </message>
    <message>
        <source>cannot store the offload of message %1: no such message in this session</source>
        <translation>无法保存消息 %1 的卸载信息：本会话中没有该消息</translation>
    </message>
    <message>
        <source>cannot store compaction record %1: %2</source>
        <translation>无法保存压缩记录 %1：%2</translation>
    </message>
    <message>
        <source>cannot store the anchor history of record %1: %2</source>
        <translation>无法保存记录 %1 的锚点历史：%2</translation>
    </message>
    <message>
        <source>no session database is open</source>
        <translation>没有打开的会话数据库</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>no database path given</source>
        <translation>未提供数据库路径</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>this database was written by a newer Waterline (schema %1); this version reads up to %2</source>
        <translation>该数据库由更新版本的 Waterline 写入（结构版本 %1）；此版本最多只能读取 %2</translation>
    </message>
    <message>
        <source>%1 is not a Waterline session database</source>
        <translation>%1 不是 Waterline 会话数据库</translation>
    </message>
    <message>
        <source>%1 cannot be opened for writing: %2</source>
        <translation>无法以写入方式打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot use write-ahead logging (journal mode %2)</source>
        <translation>%1 无法使用预写日志（日志模式 %2）</translation>
    </message>
    <message>
        <source>%1 cannot be upgraded: %2</source>
        <translation>无法升级 %1：%2</translation>
    </message>
    <message>
        <source>cannot create a session: %1</source>
        <translation>无法创建会话：%1</translation>
    </message>
    <message>
        <source>cannot list sessions: %1</source>
        <translation>无法列出会话：%1</translation>
    </message>
    <message>
        <source>cannot read session %1: %2</source>
        <translation>无法读取会话 %1：%2</translation>
    </message>
    <message>
        <source>there is no session %1</source>
        <translation>不存在会话 %1</translation>
    </message>
    <message>
        <source>cannot update session %1: %2</source>
        <translation>无法更新会话 %1：%2</translation>
    </message>
    <message>
        <source>refusing to delete &quot;%1&quot;: not a session id</source>
        <translation>拒绝删除 &quot;%1&quot;：它不是会话 ID</translation>
    </message>
    <message>
        <source>cannot delete session %1: %2</source>
        <translation>无法删除会话 %1：%2</translation>
    </message>
    <message>
        <source>cannot remove %1</source>
        <translation>无法删除 %1</translation>
    </message>
    <message>
        <source>cannot append to session %1: %2</source>
        <translation>无法向会话 %1 追加内容：%2</translation>
    </message>
    <message>
        <source>the request names this step&apos;s checkpoint, but the step has none</source>
        <translation>请求引用了本步骤的检查点，但本步骤没有检查点</translation>
    </message>
    <message>
        <source>cannot update request %1: %2</source>
        <translation>无法更新请求 %1：%2</translation>
    </message>
    <message>
        <source>there is no request %1 in session %2</source>
        <translation>会话 %2 中没有请求 %1</translation>
    </message>
    <message>
        <source>a message names this step&apos;s request, but the step has none</source>
        <translation>某条消息引用了本步骤的请求，但本步骤没有请求</translation>
    </message>
    <message>
        <source>an offload names message %1 of this step, which has %2</source>
        <translation>某个卸载项引用了本步骤的消息 %1，但本步骤只有 %2 条</translation>
    </message>
    <message>
        <source>cannot read the messages of session %1: %2</source>
        <translation>无法读取会话 %1 的消息：%2</translation>
    </message>
    <message>
        <source>there is no message %1</source>
        <translation>不存在消息 %1</translation>
    </message>
    <message>
        <source>no result for tool call %1</source>
        <translation>工具调用 %1 没有结果</translation>
    </message>
    <message>
        <source>cannot read the checkpoints of session %1: %2</source>
        <translation>无法读取会话 %1 的检查点：%2</translation>
    </message>
    <message>
        <source>cannot read the offloads of session %1: %2</source>
        <translation>无法读取会话 %1 的卸载项：%2</translation>
    </message>
    <message>
        <source>cannot remove checkpoint %1: %2</source>
        <translation>无法删除检查点 %1：%2</translation>
    </message>
    <message>
        <source>there is no checkpoint %1</source>
        <translation>不存在检查点 %1</translation>
    </message>
    <message>
        <source>cannot read the requests of session %1: %2</source>
        <translation>无法读取会话 %1 的请求：%2</translation>
    </message>
    <message>
        <source>cannot read the compaction records of session %1: %2</source>
        <translation>无法读取会话 %1 的压缩记录：%2</translation>
    </message>
    <message>
        <source>record %1: %2</source>
        <translation>记录 %1：%2</translation>
    </message>
    <message>
        <source>cannot read the anchor history of session %1: %2</source>
        <translation>无法读取会话 %1 的锚点历史：%2</translation>
    </message>
    <message>
        <source>cannot add requests to session %1: %2</source>
        <translation>无法向会话 %1 添加请求：%2</translation>
    </message>
    <message>
        <source>there is no such session</source>
        <translation>没有这个会话</translation>
    </message>
    <message>
        <source>message %1 is not in this session</source>
        <translation>消息 %1 不属于本会话</translation>
    </message>
    <message>
        <source>cannot store the source of session %1: %2</source>
        <translation>无法保存会话 %1 的来源：%2</translation>
    </message>
    <message>
        <source>cannot read the source of session %1: %2</source>
        <translation>无法读取会话 %1 的来源：%2</translation>
    </message>
    <message>
        <source>cannot export session %1: %2</source>
        <translation>无法导出会话 %1：%2</translation>
    </message>
    <message>
        <source>cannot import %1: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
    <message>
        <source>cannot read checkpoint %1: %2</source>
        <translation>无法读取检查点 %1：%2</translation>
    </message>
    <message>
        <source>cannot remove the offloads of checkpoint %1: %2</source>
        <translation>无法删除检查点 %1 的卸载文件：%2</translation>
    </message>
    <message>
        <source>the offload of message %1 names the file &quot;%2&quot;, which is not a file name</source>
        <translation>消息 %1 的卸载记录指向文件“%2”，这不是一个文件名</translation>
    </message>
    <message>
        <source>a compaction record names the offload file &quot;%1&quot;, which is not a file name</source>
        <translation>一条压缩记录指向卸载文件“%1”，这不是一个文件名</translation>
    </message>
    <message>
        <source>no database is open</source>
        <translation>没有打开的数据库</translation>
    </message>
    <message>
        <source>session %1 is not an import waiting to be continued</source>
        <translation>会话 %1 不是等待继续的导入会话</translation>
    </message>
    <message>
        <source>the workspace %1 is not a folder</source>
        <translation>工作区 %1 不是文件夹</translation>
    </message>
    <message>
        <source>cannot continue session %1: %2</source>
        <translation>无法继续会话 %1：%2</translation>
    </message>
    <message>
        <source>it changed meanwhile</source>
        <translation>它在此期间已被更改</translation>
    </message>
    <message>
        <source>cannot store what request %1 of session %2 was sent with: %3</source>
        <translation>无法存储会话 %2 的请求 %1 发送时的内容：%3</translation>
    </message>
    <message>
        <source>there is no such request</source>
        <translation>没有这样的请求</translation>
    </message>
    <message>
        <source>cannot read what request %1 of session %2 was sent with: %3</source>
        <translation>无法读取会话 %2 的请求 %1 发送时的内容：%3</translation>
    </message>
    <message>
        <source>cannot store version %1 of checkpoint %2: %3</source>
        <translation>无法存储检查点 %2 的版本 %1：%3</translation>
    </message>
    <message>
        <source>cannot read the checkpoint versions of session %1: %2</source>
        <translation>无法读取会话 %1 的检查点版本：%2</translation>
    </message>
    <message>
        <source>cannot read the pins of session %1: %2</source>
        <translation>无法读取会话 %1 的固定项：%2</translation>
    </message>
    <message>
        <source>Not pinned: the note is empty.</source>
        <translation>未固定：备注为空。</translation>
    </message>
    <message>
        <source>cannot read message %1: %2</source>
        <translation>无法读取消息 %1：%2</translation>
    </message>
    <message>
        <source>Not pinned: session %1 has no message %2.</source>
        <translation>未固定：会话 %1 中没有消息 %2。</translation>
    </message>
    <message>
        <source>Not pinned: the selection is not part of message %1.</source>
        <translation>未固定：所选内容不属于消息 %1。</translation>
    </message>
    <message>
        <source>cannot pin in session %1: %2</source>
        <translation>无法在会话 %1 中固定：%2</translation>
    </message>
    <message>
        <source>cannot unpin %1: %2</source>
        <translation>无法取消固定 %1：%2</translation>
    </message>
    <message>
        <source>there is no pin %1</source>
        <translation>不存在固定项 %1</translation>
    </message>
    <message>
        <source>cannot read the versions of checkpoint %1: %2</source>
        <translation>无法读取检查点 %1 的版本：%2</translation>
    </message>
    <message>
        <source>a checkpoint&apos;s text must begin with [Context Compaction]</source>
        <translation>检查点的文本必须以 [Context Compaction] 开头</translation>
    </message>
    <message>
        <source>checkpoint %1 has no edit to undo</source>
        <translation>检查点 %1 没有可撤销的编辑</translation>
    </message>
    <message>
        <source>cannot undo the edit of checkpoint %1: %2</source>
        <translation>无法撤销检查点 %1 的编辑：%2</translation>
    </message>
    <message>
        <source>cannot complete the import: %1</source>
        <translation>无法完成导入：%1</translation>
    </message>
    <message>
        <source>cannot find unfinished imports: %1</source>
        <translation>无法查找未完成的导入：%1</translation>
    </message>
    <message>
        <source>cannot remove the unfinished import %1: %2</source>
        <translation>无法删除未完成的导入 %1：%2</translation>
    </message>
    <message>
        <source>refusing to store &quot;%1&quot;: not a session id</source>
        <translation>拒绝存储“%1”：不是会话 id</translation>
    </message>
    <message>
        <source>request %1 names messages that are not in the file</source>
        <translation>请求 %1 引用了文件中不存在的消息</translation>
    </message>
    <message>
        <source>the messages of request %1 were not stored in file order</source>
        <translation>请求 %1 的消息未按文件顺序存储</translation>
    </message>
    <message>
        <source>request %1 has a damaged view list (%2)</source>
        <translation>请求 %1 的视图列表已损坏（%2）</translation>
    </message>
</context>
<context>
    <name>wl::SessionsPanel</name>
    <message>
        <source>New...</source>
        <translation>新建...</translation>
    </message>
    <message>
        <source>Start a new session in a workspace folder</source>
        <translation>在某个工作区文件夹中开始新会话</translation>
    </message>
    <message>
        <source>Rename...</source>
        <translation>重命名...</translation>
    </message>
    <message>
        <source>Delete...</source>
        <translation>删除...</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <source>Could not create the session</source>
        <translation>无法创建会话</translation>
    </message>
    <message>
        <source>Rename session</source>
        <translation>重命名会话</translation>
    </message>
    <message>
        <source>Could not rename the session</source>
        <translation>无法重命名会话</translation>
    </message>
    <message>
        <source>Delete session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete &quot;%1&quot;? Its messages, compaction records, audit file and offloaded results are removed. The workspace&apos;s own files are not touched.</source>
        <translation>删除“%1”？其消息、压缩记录、审计文件和已卸载的结果都会被删除。工作区中的文件本身不受影响。</translation>
    </message>
    <message>
        <source>Could not delete the session</source>
        <translation>无法删除会话</translation>
    </message>
    <message>
        <source>The agent would work in %1, which is the whole file system or your home folder: it could read and change every file there, your keys included.

Use this folder anyway?</source>
        <translation>智能体将在 %1 中工作，它是整个文件系统或你的主文件夹：智能体可以读取和修改那里的每个文件，包括你的密钥。

仍然使用此文件夹吗？</translation>
    </message>
    <message>
        <source>&amp;Continue Imported Session…</source>
        <translation>继续导入的会话(&amp;C)…</translation>
    </message>
    <message>
        <source>Choose the folder and provider an imported session continues with</source>
        <translation>选择导入的会话继续使用的文件夹和提供商</translation>
    </message>
    <message>
        <source>Could not continue the session</source>
        <translation>无法继续会话</translation>
    </message>
    <message>
        <source>Default (Settings › Compaction)</source>
        <translation>默认（设置 › 压缩）</translation>
    </message>
    <message>
        <source>Compaction spec defaults</source>
        <translation>压缩规范默认值</translation>
    </message>
    <message>
        <source>As “%1”</source>
        <translation>同“%1”</translation>
    </message>
    <message>
        <source>&lt;b&gt;Demo&lt;/b&gt; (read-only, rebuilt by Waterline: your work is never kept here)</source>
        <translation>&lt;b&gt;演示&lt;/b&gt;（只读，由 Waterline 重建：您的工作从不保存在这里）</translation>
    </message>
</context>
<context>
    <name>wl::SettingsDialog</name>
    <message>
        <source>Waterline Settings</source>
        <translation>Waterline 设置</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Compaction</source>
        <translation>压缩</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation>设置页面</translation>
    </message>
    <message>
        <source>Some stored provider profiles could not be read and are not shown; they are kept under providers/unreadable when you save. %1</source>
        <translation>部分已保存的提供商配置无法读取，因此未显示；保存时它们会保留在 providers/unreadable 下。%1</translation>
    </message>
    <message>
        <source>Not saved. %1</source>
        <translation>未保存。%1</translation>
    </message>
    <message>
        <source>Not saved. The compaction policy is not valid: %1</source>
        <translation>未保存。压缩策略无效：%1</translation>
    </message>
    <message>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
</context>
<context>
    <name>wl::Simulator</name>
    <message>
        <source>still at or above the full threshold: only the tail is left</source>
        <translation>仍处于或高于完全压缩阈值：只剩下尾部</translation>
    </message>
    <message>
        <source>mask: still at %1% of the window after masking, at or above %2%; this strategy writes no summary before Emergency</source>
        <translation>遮蔽：遮蔽后仍占窗口的 %1%，达到或超过 %2%；此策略在 Emergency 之前不写摘要</translation>
    </message>
</context>
<context>
    <name>wl::SlashCommand</name>
    <message>
        <source>Compact the context if a tier is reached</source>
        <translation>达到某个层级时压缩上下文</translation>
    </message>
    <message>
        <source>Compact the context now, whatever the tier</source>
        <translation>立即压缩上下文，不论处于哪个层级</translation>
    </message>
    <message>
        <source>Restore the context from before the last compaction</source>
        <translation>将上下文恢复到上一次压缩之前的状态</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>开始新会话</translation>
    </message>
    <message>
        <source>Send the last request again</source>
        <translation>重新发送上一个请求</translation>
    </message>
</context>
<context>
    <name>wl::StreamAssembler</name>
    <message>
        <source>malformed stream event (%1): %2</source>
        <translation>流事件格式错误（%1）：%2</translation>
    </message>
    <message>
        <source>the stream ended before the reply was complete</source>
        <translation>回复尚未完成，流就已结束</translation>
    </message>
    <message>
        <source>The connection closed before the reply was complete.</source>
        <translation>回复尚未完成，连接就已关闭。</translation>
    </message>
</context>
<context>
    <name>wl::SummaryChain</name>
    <message>
        <source>skipped by the user</source>
        <translation>被用户跳过</translation>
    </message>
    <message>
        <source>the summariser is gone</source>
        <translation>摘要器已不存在</translation>
    </message>
    <message>
        <source>empty answer</source>
        <translation>回答为空</translation>
    </message>
    <message>
        <source>unparseable answer (no known header)</source>
        <translation>无法解析的回答（没有已知的标题）</translation>
    </message>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>timeout after %1 ms</source>
        <translation>%1 毫秒后超时</translation>
    </message>
    <message>
        <source>not tried: the summary timeout of %1 ms was used up</source>
        <translation>未尝试：%1 毫秒的摘要超时已用完</translation>
    </message>
    <message>
        <source>empty answer (headings with nothing under them)</source>
        <translation>空回答（只有标题，下面没有内容）</translation>
    </message>
</context>
<context>
    <name>wl::SummaryReviewDialog</name>
    <message>
        <source>(1 more message not shown)</source>
        <translation>（另有 1 条消息未显示）</translation>
    </message>
    <message>
        <source>(%1 more messages not shown)</source>
        <translation>（另有 %1 条消息未显示）</translation>
    </message>
    <message>
        <source>Reset to Draft</source>
        <translation>重置为草稿</translation>
    </message>
    <message>
        <source>Review the Summary</source>
        <translation>审阅摘要</translation>
    </message>
    <message>
        <source>What it replaces</source>
        <translation>它替换的内容</translation>
    </message>
    <message>
        <source>The checkpoint (editable)</source>
        <translation>检查点（可编辑）</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>1 message</source>
        <translation>1 条消息</translation>
    </message>
    <message>
        <source>%1 messages</source>
        <translation>%1 条消息</translation>
    </message>
    <message>
        <source>The %1 tier wants to replace %2 with this checkpoint. The agent waits until you accept it (edited or not) or reject it; a rejected summary is drafted again at the next tier.</source>
        <translation>%1 层级要用此检查点替换 %2。智能体会等待您接受（无论是否编辑）或拒绝它；被拒绝的摘要将在下一层级重新起草。</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Commit the checkpoint as shown; an edit is kept as a new version beside the draft</source>
        <translation>按所示内容提交检查点；编辑会作为新版本保存在草稿旁</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Keep the history; the summary is drafted again at the next tier</source>
        <translation>保留历史记录；摘要将在下一层级重新起草</translation>
    </message>
    <message>
        <source>Edit the Checkpoint</source>
        <translation>编辑检查点</translation>
    </message>
    <message>
        <source>Version %1 of this checkpoint. Committing makes a new version that the following requests send; Undo in the Compactions dock goes back a version.</source>
        <translation>此检查点的第 %1 版。提交会生成一个新版本供后续请求发送；在“压缩”停靠窗口中撤销可回退一个版本。</translation>
    </message>
    <message>
        <source>Commit New Version</source>
        <translation>提交新版本</translation>
    </message>
    <message>
        <source>Store the edit as a new version for the requests that follow</source>
        <translation>将编辑存储为新版本，供后续请求使用</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Checkpoint tokens: %1 → %2 (%3)</source>
        <translation>检查点令牌：%1 → %2 (%3)</translation>
    </message>
    <message>
        <source>Context tokens: %1 → %2 (%3)</source>
        <translation>上下文令牌：%1 → %2 (%3)</translation>
    </message>
    <message>
        <source> · edited</source>
        <translation> · 已编辑</translation>
    </message>
    <message numerus="yes">
        <source>Drafted in the background at request %1; the newest %n message(s) were added when the tier fired.</source>
        <translation>
            <numerusform>已在请求 %1 时于后台起草；触发该层级时补充了最新的 %n 条消息。</numerusform>
        </translation>
    </message>
    <message>
        <source>Drafted in the background at request %1.</source>
        <translation>已在请求 %1 时于后台起草。</translation>
    </message>
    <message>
        <source>This checkpoint is not smaller than the messages it replaces, so it cannot be accepted as a compaction: shorten it, or reject it.</source>
        <translation>此检查点并不比它替换的消息小，因此不能作为压缩被接受：请缩短它，或拒绝它。</translation>
    </message>
</context>
<context>
    <name>wl::SweepChart</name>
    <message>
        <source>Policies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Pareto front</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>Current policy</source>
        <translation>当前策略</translation>
    </message>
    <message>
        <source>Selected</source>
        <translation>已选择</translation>
    </message>
    <message>
        <source>Coverage (%)</source>
        <translation>覆盖率 (%)</translation>
    </message>
    <message>
        <source>Cost (US$)</source>
        <translation>成本 (US$)</translation>
    </message>
    <message>
        <source>Billed tokens (millions)</source>
        <translation>计费令牌（百万）</translation>
    </message>
</context>
<context>
    <name>wl::SweepTableModel</name>
    <message>
        <source>current policy</source>
        <translation>当前策略</translation>
    </message>
    <message>
        <source>base policy</source>
        <translation>基础策略</translation>
    </message>
    <message>
        <source>Not run: %1</source>
        <translation>未运行：%1</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>Needed facts the views kept: verbatim, summarised or retrievable</source>
        <translation>视图保留的所需事实：原样、已摘要或可检索</translation>
    </message>
    <message>
        <source>What the requests and summaries cost with prompt caching (n/a: a model has no price)</source>
        <translation>使用提示词缓存时请求和摘要的成本（不适用：某个模型没有价格）</translation>
    </message>
    <message>
        <source>The highest share of the window a request sent, after compaction</source>
        <translation>压缩后单个请求发送的内容占窗口的最高比例</translation>
    </message>
    <message>
        <source>On the Pareto front: no other policy covers as much for less</source>
        <translation>位于帕累托前沿：没有其他策略能以更低成本覆盖同样多的内容</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Coverage</source>
        <translation>覆盖率</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>US$</source>
        <translation>US$</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Cache read</source>
        <translation>缓存读取</translation>
    </message>
    <message>
        <source>Cache write</source>
        <translation>缓存写入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Summaries</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Pareto</source>
        <translation>帕累托</translation>
    </message>
</context>
<context>
    <name>wl::ThresholdsPanel</name>
    <message>
        <source>Tier thresholds (% of the context window)</source>
        <translation>层级阈值（占上下文窗口的百分比）</translation>
    </message>
    <message>
        <source>Window, tail and offloading</source>
        <translation>窗口、尾部与卸载</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> 个 token</translation>
    </message>
    <message>
        <source>never compact</source>
        <translation>从不压缩</translation>
    </message>
    <message>
        <source> messages</source>
        <translation> 条消息</translation>
    </message>
    <message>
        <source> bytes</source>
        <translation> 字节</translation>
    </message>
    <message>
        <source>Count tool schemas in the ratio</source>
        <translation>将工具 schema 计入占用比例</translation>
    </message>
    <message>
        <source>Context &amp;window:</source>
        <translation>上下文窗口(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Tail kept verbatim:</source>
        <translation>原样保留的尾部(&amp;T)：</translation>
    </message>
    <message>
        <source>Offload at tool t&amp;ime (gate 1):</source>
        <translation>工具执行时卸载（关口 1）(&amp;I)：</translation>
    </message>
    <message>
        <source>Offload at com&amp;paction (gate 2):</source>
        <translation>压缩时卸载（关口 2）(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Reserved for output:</source>
        <translation>为输出预留(&amp;R)：</translation>
    </message>
    <message>
        <source>Recorded against what-if</source>
        <translation>记录与假设对比</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recorded&lt;/b&gt;</source>
        <translation>&lt;b&gt;已记录&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;What-if&lt;/b&gt;</source>
        <translation>&lt;b&gt;假设&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Summary calls</source>
        <translation>摘要调用次数</translation>
    </message>
    <message>
        <source>&amp;Apply to session</source>
        <translation>应用到会话(&amp;A)</translation>
    </message>
    <message>
        <source>Make this the session&apos;s live compaction policy</source>
        <translation>将其设为该会话当前生效的压缩策略</translation>
    </message>
    <message numerus="yes">
        <source>Replayed %n request(s) in %1 ms</source>
        <translation>
            <numerusform>已在 %1 毫秒内重放 %n 个请求</numerusform>
        </translation>
    </message>
    <message>
        <source>What the session did, from its stored requests and compactions</source>
        <translation>会话实际的运行情况，来自其已保存的请求和压缩记录</translation>
    </message>
    <message>
        <source>The replay of the session under the policy above</source>
        <translation>按上方策略重放该会话的结果</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <source>The window, in tokens, the peaks below are shares of</source>
        <translation>下方峰值所占比例的基准窗口，单位为 token</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <source>Requests to the model, one per recorded request</source>
        <translation>发给模型的请求，每个已记录的请求对应一个</translation>
    </message>
    <message>
        <source>Tokens sent in requests</source>
        <translation>请求发送的 token 数</translation>
    </message>
    <message>
        <source>Every request&apos;s context (estimated), tool schemas when counted and any fixed overhead, summed over the requests</source>
        <translation>所有请求的上下文（估算值）、工具 schema（计入时）及固定开销的总和</translation>
    </message>
    <message>
        <source>Read by summaries</source>
        <translation>摘要读取</translation>
    </message>
    <message>
        <source>Tokens the Soft and Full summaries read: the input an LLM summariser is sent, besides the requests. The session does not record it.</source>
        <translation>轻度和完全压缩的摘要所读取的 token 数：即请求之外发送给 LLM 摘要器的输入。会话不记录此项。</translation>
    </message>
    <message>
        <source>Soft and Full compactions that wrote a summary (an LLM call with an LLM summariser)</source>
        <translation>写出了摘要的轻度和完全压缩（使用 LLM 摘要器时即一次 LLM 调用）</translation>
    </message>
    <message>
        <source>Requests at %1</source>
        <translation>%1级请求数</translation>
    </message>
    <message>
        <source>Requests whose estimate before compaction reached Warn: results offloaded</source>
        <translation>压缩前估算达到预警级的请求：卸载结果</translation>
    </message>
    <message>
        <source>Requests whose estimate before compaction reached Emergency: summarised without an LLM call and offloaded</source>
        <translation>压缩前估算达到紧急级的请求：不调用 LLM 进行摘要，并卸载结果</translation>
    </message>
    <message>
        <source>Offloads</source>
        <translation>卸载</translation>
    </message>
    <message>
        <source>Tool results moved to files, when the tool finished (gate 1) and at compaction (gate 2)</source>
        <translation>移入文件的工具结果，包括工具完成时（关口 1）和压缩时（关口 2）</translation>
    </message>
    <message>
        <source>Peak before compaction</source>
        <translation>压缩前峰值</translation>
    </message>
    <message>
        <source>The highest share of the window a request reached before its compaction: what chose the tier</source>
        <translation>请求在压缩前达到的最高窗口占比：层级由它决定</translation>
    </message>
    <message>
        <source>Peak after compaction</source>
        <translation>压缩后峰值</translation>
    </message>
    <message>
        <source>The highest share of the window a request was sent with</source>
        <translation>请求发送时的最高窗口占比</translation>
    </message>
    <message>
        <source>Re&amp;set to session policy</source>
        <translation>重置为会话策略(&amp;S)</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>counted</source>
        <translation>计入</translation>
    </message>
    <message>
        <source>not counted</source>
        <translation>不计入</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>A tier is chosen on a request&apos;s estimate before compaction; the compaction then brings it down, so the peak after compaction can stay below the Emergency threshold.</source>
        <translation>层级依据请求在压缩前的估算选定；随后压缩会将其降下来，因此压缩后峰值可能始终低于紧急阈值。</translation>
    </message>
    <message>
        <source>Strate&amp;gy:</source>
        <translation>策略(&amp;G)：</translation>
    </message>
    <message>
        <source>Requests whose estimate before compaction reached Soft: the older half of the head summarised (mask and hybrid: the head&apos;s tool results masked first)</source>
        <translation>压缩前估计值达到 Soft 的请求：对头部较旧的一半进行摘要（mask 和 hybrid：先遮蔽头部的工具结果）</translation>
    </message>
    <message>
        <source>Requests whose estimate before compaction reached Full: the whole head summarised (mask and hybrid: the head&apos;s tool results masked first)</source>
        <translation>压缩前估计值达到 Full 的请求：对整个头部进行摘要（mask 和 hybrid：先遮蔽头部的工具结果）</translation>
    </message>
    <message>
        <source>Restore the whole policy the session runs with: window %1; Warn %2, Soft %3, Full %4, Emergency %5; tail %6 messages; offload at tool time above %7 bytes, at compaction above %8 bytes; %9 tokens reserved for output; tool schemas %10; strategy %11</source>
        <translation>恢复会话所用的完整策略：窗口 %1；Warn %2、Soft %3、Full %4、Emergency %5；尾部 %6 条消息；工具调用时超过 %7 字节即卸载，压缩时超过 %8 字节即卸载；为输出预留 %9 个令牌；工具模式 %10；策略 %11</translation>
    </message>
    <message numerus="yes">
        <source>Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the recorded ones. They add %2 tokens sent (%3 without them).</source>
        <translation>
            <numerusform>录制之后新增的固定项：%n 个，%1 个 token，包含在每个假设请求中，而不在任何已记录的请求中。它们使发送的 token 增加 %2 个（不含它们时为 %3）。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>Requests per tier: %1.</source>
        <translation>各层级请求数：%1。</translation>
    </message>
    <message>
        <source>The tiers are the same.</source>
        <translation>各层级请求数没有变化。</translation>
    </message>
    <message numerus="yes">
        <source>Pins made after the recording: %n, %1 tokens, in every what-if request and in none of the recorded ones. With the compactions they bring forward, %2 fewer tokens are sent (%3 without them).</source>
        <translation>
            <numerusform>录制之后新增的固定项：%n 个，%1 个 token，包含在每个假设请求中，而不在任何已记录的请求中。由于它们使压缩提前发生，发送的 token 减少了 %2 个（不含它们时为 %3）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>wl::Tier</name>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Warn</source>
        <translation>预警</translation>
    </message>
    <message>
        <source>Soft</source>
        <translation>轻度</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>Emergency</source>
        <translation>紧急</translation>
    </message>
</context>
<context>
    <name>wl::TimelineChart</name>
    <message>
        <source>LLM request</source>
        <translation>LLM 请求</translation>
    </message>
    <message>
        <source>Context used (%)</source>
        <translation>已用上下文（%）</translation>
    </message>
    <message>
        <source>%1 threshold</source>
        <translation>%1阈值</translation>
    </message>
    <message>
        <source>Selected request</source>
        <translation>所选请求</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Waterline timeline</source>
        <translation>Waterline 时间线</translation>
    </message>
</context>
<context>
    <name>wl::TimelineModel</name>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Full history</source>
        <translation>完整历史</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Reported</source>
        <translation>已报告</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <source>What-if</source>
        <translation>假设</translation>
    </message>
    <message>
        <source>What-if tier</source>
        <translation>假设层级</translation>
    </message>
</context>
<context>
    <name>wl::TimelinePanel</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Save the chart as PNG or SVG, or its data as CSV</source>
        <translation>将图表保存为 PNG 或 SVG，或将其数据保存为 CSV</translation>
    </message>
    <message>
        <source>Chart as PNG...</source>
        <translation>图表导出为 PNG...</translation>
    </message>
    <message>
        <source>Chart as SVG...</source>
        <translation>图表导出为 SVG...</translation>
    </message>
    <message>
        <source>Data as CSV...</source>
        <translation>数据导出为 CSV...</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export timeline</source>
        <translation>导出时间线</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>% of window</source>
        <translation>窗口占比（%）</translation>
    </message>
    <message>
        <source>Measure every line as a share of one context window (the what-if&apos;s, when it has its own)</source>
        <translation>以同一上下文窗口的占比衡量所有曲线（假设有自己的窗口时，使用假设的窗口）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Measure every line in tokens</source>
        <translation>以 token 数衡量所有曲线</translation>
    </message>
    <message>
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <source>Show every request again (0). The wheel zooms, a drag or Shift+wheel pans, + and - zoom, Left and Right move the selected request.</source>
        <translation>重新显示所有请求（0）。滚轮缩放，拖动或 Shift+滚轮平移，+ 和 - 缩放，左右方向键移动所选请求。</translation>
    </message>
    <message>
        <source>Requests %1–%2 of %3</source>
        <translation>请求 %1–%2（共 %3 个）</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>折线</translation>
    </message>
    <message>
        <source>Draw the full history, what was sent, the provider&apos;s count and the what-if as lines</source>
        <translation>以折线绘制完整历史、已发送内容、提供方的计数以及假设推演</translation>
    </message>
    <message>
        <source>Composition</source>
        <translation>构成</translation>
    </message>
    <message>
        <source>Draw what filled each request&apos;s window, by category, as stacked areas (the what-if&apos;s while one is shown)</source>
        <translation>按类别以堆叠面积绘制填充每个请求窗口的内容（显示假设推演时绘制假设推演的）</translation>
    </message>
    <message>
        <source>What-if:</source>
        <translation>假设推演：</translation>
    </message>
    <message>
        <source>As sent:</source>
        <translation>实际发送：</translation>
    </message>
</context>
<context>
    <name>wl::ViewIds</name>
    <message>
        <source>view id %1 at position %2 is negative or does not come after %3</source>
        <translation>位置 %2 处的视图 ID %1 为负数或不在 %3 之后</translation>
    </message>
    <message>
        <source>entry %1 of the view is neither a whole number nor a [first, last] pair</source>
        <translation>视图的第 %1 项既不是整数，也不是 [first, last] 对</translation>
    </message>
    <message>
        <source>entry %1 of the view names ids %2 to %3, outside 0 to %4</source>
        <translation>视图的第 %1 项引用了 ID %2 到 %3，超出 0 到 %4 的范围</translation>
    </message>
    <message>
        <source>entry %1 of the view is a reversed range [%2, %3]</source>
        <translation>视图的第 %1 项是反向的范围 [%2, %3]</translation>
    </message>
    <message>
        <source>entry %1 of the view (ids from %2) does not come after id %3: the ids are unsorted or overlap</source>
        <translation>视图的第 %1 项（ID 从 %2 开始）不在 ID %3 之后：ID 未排序或有重叠</translation>
    </message>
    <message>
        <source>entry %1 of the view makes it hold more ids than can be counted</source>
        <translation>视图的第 %1 项使其包含的 ID 数量超出可计数的范围</translation>
    </message>
    <message>
        <source>the view is not a JSON array: %1</source>
        <translation>视图不是 JSON 数组：%1</translation>
    </message>
    <message>
        <source>another JSON value</source>
        <translation>其他 JSON 值</translation>
    </message>
</context>
<context>
    <name>wl::WriteFileTool</name>
    <message>
        <source>write_file %1</source>
        <translatorcomment>Shown to the user in the approval dialog; tool names (bash, edit_file, write_file) stay as they are.</translatorcomment>
        <translation>write_file %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; has %2 hard links: the same file has another name, possibly outside the workspace; the write will be refused</source>
        <translation>“%1”有 %2 个硬链接：同一文件还有其他名称，可能位于工作区之外；写入将被拒绝</translation>
    </message>
</context>
</TS>
