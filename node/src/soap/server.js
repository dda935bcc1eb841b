'use strict';
// The SOAP server (soap11, soap12, wss-username, wss-sign): node-soap's Server from idl/bench.wsdl (bench.xsd
// inlined, only the port of the registry's SOAP version, at the server's address, published at
// /bench?wsdl), document/literal wrapped, on a node:http server of its own (keep-alive, noDelay, no request
// logging). In front of node-soap's request listener: the body read with the suite's 64 MiB bound (node-soap
// reads any length), then, for the WS-Security variants, the checks of wsse.js on the raw XML (a refusal is
// a SOAP Fault wsse:InvalidSecurity or wsse:FailedAuthentication, HTTP 500, before node-soap parses
// anything); wss-sign answers are signed with node-soap's WSSecurityCert (server.key). BenchError is a
// Fault whose detail is the WSDL's BenchError element.
const http = require('node:http');
const soap = require('soap');
const { OPERATIONS } = require('../contract/operations');
const { served } = require('../contract/reference');
const { BenchError } = require('../contract/errors');
const { readBody, HttpError } = require('../httphost/server');
const { document, PORTS, TNS, SOAP11, SOAP12 } = require('./wsdl');
const { writer, reader, CUSTOM_DESERIALIZER, escape } = require('./mapping');
const wsse = require('./wsse');

const PATH = '/bench';
const KEEP_ALIVE_MS = 300 * 1000;
const REQUEST_TIMEOUT_MS = 10 * 1000;

function versionOf(options) {
  const version = options.registered.variant.soap;
  if (version !== '1.1' && version !== '1.2') throw new Error(`unknown SOAP version ${version}`);
  return version;
}

function fault(version, sender, message, detail = '') {
  if (version === '1.1') return { Fault: { faultcode: sender ? 'soap:Client' : 'soap:Server', faultstring: escape(message), detail, statusCode: 500 } };
  return { Fault: { Code: { Value: sender ? 'soap:Sender' : 'soap:Receiver' }, Reason: { Text: { attributes: { 'xml:lang': 'en' }, $value: escape(message) } }, Detail: detail, statusCode: 500 } };
}

function handlers(bench, version) {
  const out = {};
  for (const op of OPERATIONS) {
    if (op.isStream) continue;
    const params = op.params.map((p) => [p.name, reader(p.type)]);
    const write = op.returns === 'void' ? null : writer(op.returns);
    const method = bench[op.name];
    out[op.name] = (args) => {
      let values;
      try {
        values = params.map(([name, read]) => read((args || {})[name]));
      } catch (e) {
        throw fault(version, true, `${op.name}: ${e.message}`);
      }
      let result;
      try {
        result = method(...values);
      } catch (e) {
        if (e instanceof BenchError) {
          throw fault(version, false, e.benchMessage, `<BenchError xmlns="${TNS}"><code>${e.code}</code><message>${escape(e.benchMessage)}</message></BenchError>`);
        }
        throw fault(version, false, `${op.name}: ${e.message}`);
      }
      return write === null ? {} : { result: write(result) };
    };
  }
  return out;
}

function listen(server, options) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port, exclusive: true }, () => resolve(server.address().port));
  });
}

async function start(options) {
  const version = versionOf(options);
  const security = wsse.securityOf(options);
  if (security !== 'none' && version !== '1.1') throw new Error('the WS-Security variants are SOAP 1.1');
  const guard = security === 'none' ? null : new wsse.Guard(options);
  const server = http.createServer({ noDelay: true, keepAlive: true, requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  const port = await listen(server, options);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const xml = document(version, `http://${host}:${port}${PATH}`);
  await new Promise((resolve, reject) => {
    const listening = soap.listen(server, {
      path: PATH,
      services: { BenchService: { [PORTS[version]]: handlers(served(), version) } },
      xml,
      escapeXML: false,
      preserveWhitespace: true,
      customDeserializer: CUSTOM_DESERIALIZER,
      forceSoap12Headers: version === '1.2',
      enableChunkedEncoding: false,
      suppressStack: true,
      callback: (error) => (error ? reject(error) : resolve()),
    });
    // node-soap's Server does not take preserveWhitespace from its options (only its Client does): without
    // it, its parser trims every string's leading and trailing whitespace.
    listening.wsdl.options.preserveWhitespace = true;
  });
  const soapListener = server.listeners('request')[0];
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    if (request.method !== 'POST') {
      soapListener(request, response);
      return;
    }
    readBody(request).then((body) => {
      const text = body.toString('utf8');
      if (/<!DOCTYPE/i.test(text.slice(0, 4096))) { // sax would read it and go on; SOAP forbids a DTD (SOAP 1.1 section 3, SOAP 1.2 part 1 section 5)
        const refusal = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${version === '1.1' ? SOAP11 : SOAP12}"><soap:Body><soap:Fault>${version === '1.1'
          ? '<faultcode>soap:Client</faultcode><faultstring>a document type declaration is not taken</faultstring>'
          : '<soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">a document type declaration is not taken</soap:Text></soap:Reason>'}</soap:Fault></soap:Body></soap:Envelope>`;
        response.writeHead(500, { 'Content-Type': version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8', 'Content-Length': Buffer.byteLength(refusal) });
        response.end(refusal);
        return;
      }
      if (guard) {
        try {
          guard.check(text);
        } catch (e) {
          if (!(e instanceof wsse.SecurityRefused)) throw e;
          const refusal = wsse.faultEnvelope(e.message.includes('password') ? 'FailedAuthentication' : 'InvalidSecurity', e.message);
          response.writeHead(500, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': Buffer.byteLength(refusal) });
          response.end(refusal);
          return;
        }
        rewriteAnswers(response, guard);
      }
      request.body = body.length ? body : Buffer.from(' ');
      soapListener(request, response);
    }).catch((e) => {
      if (response.headersSent) return;
      const status = e instanceof HttpError ? e.status : 500;
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      response.end(`${e.message}\n`);
    });
  });
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return {
    port,
    facts: { soap: version, wsse: security },
    stop: () => new Promise((done) => {
      server.close(() => done());
      for (const s of sockets) s.destroy();
    }),
  };
}

// node-soap answers with one res.end(text) (enableChunkedEncoding false): the text goes through the guard
// (wsse.Guard.answer: its own Timestamp header out, wss-sign answers signed) before it leaves.
function rewriteAnswers(response, guard) {
  const end = response.end.bind(response);
  response.end = (chunk, ...rest) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return end(chunk, ...rest);
    let signed;
    try {
      signed = guard.answer(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
    } catch (e) {
      process.stderr.write(`signing the answer: ${e.message}\n`);
      response.statusCode = 500;
      signed = wsse.faultEnvelope('InvalidSecurity', 'the server could not sign its answer');
    }
    if (!response.headersSent) response.removeHeader('Content-Length');
    return end(signed);
  };
}

module.exports = { start, PATH };
