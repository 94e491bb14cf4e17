// The official `@anthropic-ai/sdk` against the proxy: Messages, streamed and not, a tool loop and
// status errors. See common.cjs for how it is run.
'use strict';
const { Anthropic } = require('@anthropic-ai/sdk');
const { describeError, run } = require('./common.cjs');

const model = 'fake-model';
const client = (baseUrl) => new Anthropic({
    baseURL: baseUrl,
    apiKey: 'sk-ant-fake-key-for-the-proxy-test',
    maxRetries: 0,
    timeout: 20000,
});

const weatherTool = {
    name: 'get_weather',
    description: 'The weather in a city',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const textOf = (message) => message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');

async function streamed(anthropic, body) {
    const stream = anthropic.messages.stream(body);
    const eventTypes = [];
    let deltas = '';
    stream.on('streamEvent', (event) => eventTypes.push(event.type));
    stream.on('text', (piece) => { deltas += piece; });
    const message = await stream.finalMessage();
    return { message, eventTypes, deltas };
}

run({
    async 'message'(baseUrl) {
        const message = await client(baseUrl).messages.create({
            model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello (anthropic, whole)' }],
        });
        return { kind: 'message', text: textOf(message), stopReason: message.stop_reason, usage: message.usage };
    },
    async 'message-stream'(baseUrl) {
        const { message, eventTypes, deltas } = await streamed(client(baseUrl), {
            model, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello (anthropic, streamed)' }],
        });
        return { kind: 'message-stream', text: textOf(message), deltas, eventTypes, stopReason: message.stop_reason, usage: message.usage };
    },
    async 'tool-loop'(baseUrl) {
        const anthropic = client(baseUrl);
        const messages = [{ role: 'user', content: 'What is the weather in Oslo? (anthropic, tools)' }];
        const first = await streamed(anthropic, { model, max_tokens: 256, messages, tools: [weatherTool] });
        const uses = first.message.content.filter((b) => b.type === 'tool_use');
        messages.push({ role: 'assistant', content: first.message.content });
        messages.push({
            role: 'user',
            content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u.id, content: `Sunny in ${u.input.city}` })),
        });
        const second = await anthropic.messages.create({ model, max_tokens: 256, messages, tools: [weatherTool] });
        return {
            kind: 'tool-loop', toolUses: uses.map((u) => ({ id: u.id, name: u.name, input: u.input })),
            firstStopReason: first.message.stop_reason, text: textOf(second), stopReason: second.stop_reason,
        };
    },
    async 'error'(baseUrl) {
        try {
            await client(baseUrl).messages.create({ model, max_tokens: 16, messages: [{ role: 'user', content: 'Fail (anthropic)' }] });
            return { kind: 'no error' };
        } catch (error) {
            return describeError(error);
        }
    },
});
