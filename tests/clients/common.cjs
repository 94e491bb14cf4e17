// Shared by the SDK scripts that tests/e2e/tst_proxyclients runs: the case to run comes as the
// first argument, the proxy's base URL in WATERLINE_BASE_URL; what the SDK gave back is printed
// as one JSON object on stdout, and an unexpected failure exits 1 with the reason on stderr.
'use strict';

function header(headers, name) {
    if (!headers)
        return null;
    if (typeof headers.get === 'function')
        return headers.get(name);
    return headers[name] ?? null;
}

// What a test needs to see of a status error: the status, Retry-After and the parsed body.
function describeError(error) {
    if (error === null || typeof error !== 'object' || typeof error.status !== 'number')
        throw error;
    return {
        kind: 'error',
        className: error.constructor.name,
        status: error.status,
        retryAfter: header(error.headers, 'retry-after'),
        error: error.error ?? null,
    };
}

async function run(cases) {
    const name = process.argv[2];
    const baseUrl = process.env.WATERLINE_BASE_URL;
    if (!cases[name] || !baseUrl) {
        process.stderr.write(`usage: WATERLINE_BASE_URL=URL node ${process.argv[1]} ${Object.keys(cases).join('|')}\n`);
        process.exit(2);
    }
    try {
        const result = await cases[name](baseUrl);
        process.stdout.write(JSON.stringify(result) + '\n');
    } catch (error) {
        process.stderr.write(`${name}: ${error && error.stack ? error.stack : error}\n`);
        process.exit(1);
    }
}

module.exports = { describeError, run };
