// The official `openai` SDK against the proxy: Chat Completions, streamed and not, a tool loop
// and status errors. See common.cjs for how it is run.
'use strict';
const OpenAI = require('openai');
const { describeError, run } = require('./common.cjs');

const model = 'fake-model';
const client = (baseUrl) => new OpenAI({
    baseURL: `${baseUrl}/v1`,
    apiKey: 'sk-fake-openai-key-for-the-proxy-test',
    maxRetries: 0,
    timeout: 20000,
});

const weatherTool = {
    type: 'function',
    function: {
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
};

async function streamed(openai, body) {
    const stream = await openai.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } });
    let text = '';
    let chunks = 0;
    let finishReason = null;
    let usage = null;
    const calls = [];
    for await (const chunk of stream) {
        ++chunks;
        if (chunk.usage)
            usage = chunk.usage;
        for (const choice of chunk.choices) {
            text += choice.delta?.content ?? '';
            if (choice.finish_reason)
                finishReason = choice.finish_reason;
            for (const piece of choice.delta?.tool_calls ?? []) {
                const call = calls[piece.index] ??= { id: '', name: '', arguments: '' };
                call.id += piece.id ?? '';
                call.name += piece.function?.name ?? '';
                call.arguments += piece.function?.arguments ?? '';
            }
        }
    }
    return { text, chunks, finishReason, usage, toolCalls: calls };
}

run({
    async 'chat'(baseUrl) {
        const completion = await client(baseUrl).chat.completions.create({
            model, messages: [{ role: 'user', content: 'Say hello (openai, whole)' }],
        });
        const choice = completion.choices[0];
        return { kind: 'chat', text: choice.message.content, finishReason: choice.finish_reason, usage: completion.usage };
    },
    async 'chat-stream'(baseUrl) {
        return { kind: 'chat-stream', ...await streamed(client(baseUrl), {
            model, messages: [{ role: 'user', content: 'Say hello (openai, streamed)' }],
        }) };
    },
    async 'tool-loop'(baseUrl) {
        const openai = client(baseUrl);
        const messages = [{ role: 'user', content: 'What is the weather in Oslo? (openai, tools)' }];
        const first = await streamed(openai, { model, messages, tools: [weatherTool] });
        messages.push({
            role: 'assistant', content: null,
            tool_calls: first.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
        });
        const results = first.toolCalls.map((c) => ({ id: c.id, city: JSON.parse(c.arguments).city }));
        for (const r of results)
            messages.push({ role: 'tool', tool_call_id: r.id, content: `Sunny in ${r.city}` });
        const second = await openai.chat.completions.create({ model, messages, tools: [weatherTool] });
        return {
            kind: 'tool-loop', toolCalls: first.toolCalls, firstFinishReason: first.finishReason,
            toolResults: results, text: second.choices[0].message.content, finishReason: second.choices[0].finish_reason,
        };
    },
    async 'error'(baseUrl) {
        try {
            await client(baseUrl).chat.completions.create({ model, messages: [{ role: 'user', content: 'Fail (openai)' }] });
            return { kind: 'no error' };
        } catch (error) {
            return describeError(error);
        }
    },
});
