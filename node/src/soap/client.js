'use strict';
// The SOAP client (soap11, soap12, wss-username, wss-sign): node-soap's Client built from the contract's own
// idl/bench.wsdl (nothing fetched from the server), the port of the registry's SOAP version, its endpoint the
// server under test, over axios with one kept-alive socket (TCP_NODELAY), through HTTP_PROXY's proxy where
// set. wss-username: node-soap's WSSecurity (UsernameToken with a password digest, nonce and created, and a
// Timestamp); wss-sign: its WSSecurityCert (client.key: RSA-SHA256 over Body and Timestamp, the certificate in
// a BinarySecurityToken), each signed answer checked against ca.crt (wsse.verifyAnswer). It makes the attack
// vectors' defective calls (harness/attacks.js) from node-soap's own messages. metadata builds a node-soap
// client from the WSDL the server publishes at ?wsdl and pings through it.
const axios = require('axios');
const soap = require('soap');
const { OPERATIONS, BY_NAME } = require('../contract/operations');
const { BenchError } = require('../contract/errors');
const { HttpClient, NoDelayAgent, hostPort, proxyOf } = require('../httphost/client');
const { WSDL_FILE, PORTS } = require('./wsdl');
const { writer, reader, CUSTOM_DESERIALIZER } = require('./mapping');
const wsse = require('./wsse');

const PATH = '/bench';
const TIMEOUT_MS = 120 * 1000;
const EXPIRED_SHIFT_MS = -10 * 60 * 1000; // created 10 minutes ago, so expired 5 minutes ago

const TABLE = new Map(OPERATIONS.filter((op) => !op.isStream).map((op) => [op.name, {
  params: op.params.map((p) => [p.name, writer(p.type)]),
  read: op.returns === 'void' ? () => undefined : reader(op.returns),
}]));

// axios with the suite's agent; through the proxy of HTTP_PROXY as the shared HTTP client goes (proxyOf: the
// proxy's connection, the server in the request line), never axios's own reading of the environment (false). No
// redirect is followed (the suite's servers send none), so axios sends with node:http itself, not through
// follow-redirects, and an error carries node's request (reusedSocket).
function transport(proxy = proxyOf()) {
  const agent = new NoDelayAgent();
  const request = axios.create({
    httpAgent: agent, timeout: TIMEOUT_MS, maxContentLength: 64 * 1024 * 1024, maxBodyLength: 64 * 1024 * 1024,
    maxRedirects: 0, proxy: proxy ? { protocol: 'http', host: proxy.host, port: proxy.port } : false,
  });
  // A request on a kept connection the peer had closed (a proxy that closes after each answer without saying so)
  // is sent again once on a new one, as the shared client's send does (request.reusedSocket).
  request.interceptors.response.use(undefined, (error) => {
    const { config } = error;
    if (config && !config.sentAgain && error.request && error.request.reusedSocket && error.code === 'ECONNRESET') {
      return request({ ...config, sentAgain: true });
    }
    throw error;
  });
  return { agent, request };
}

function clientOptions(version, endpoint, request) {
  return {
    endpoint, request, escapeXML: false, preserveWhitespace: true, customDeserializer: CUSTOM_DESERIALIZER,
    forceSoap12Headers: version === '1.2', returnFault: true,
  };
}

// Runs fn with the clock shifted (the expired-timestamp attack): node-soap's security classes read new Date().
function withClock(shiftMs, fn) {
  const RealDate = Date;
  class Shifted extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shiftMs);
      else super(...args);
    }

    static now() {
      return RealDate.now() + shiftMs;
    }
  }
  global.Date = Shifted;
  try {
    return fn();
  } finally {
    global.Date = RealDate;
  }
}

function benchErrorOf(error) {
  const root = error && error.root;
  const faultNode = root && root.Envelope && root.Envelope.Body && root.Envelope.Body.Fault;
  if (!faultNode) return error;
  const detail = faultNode.detail || faultNode.Detail;
  const bench = detail && typeof detail === 'object' ? detail.BenchError : undefined;
  if (bench && typeof bench === 'object' && /^-?[0-9]+$/.test(String(bench.code).trim())) {
    const message = typeof bench.message === 'string' ? bench.message : '';
    return new BenchError(Number(String(bench.code).trim()), message);
  }
  const reason = faultNode.faultstring || (faultNode.Reason && faultNode.Reason.Text) || '';
  const code = faultNode.faultcode || (faultNode.Code && faultNode.Code.Value) || '';
  return new Error(`SOAP Fault ${typeof code === 'object' ? JSON.stringify(code) : code}: ${typeof reason === 'object' ? reason.$value || JSON.stringify(reason) : reason}`);
}

class SoapClient {
  constructor(options, version, security, client, connection) {
    this.options = options;
    this.version = version;
    this.security = security;
    this.client = client;
    this.connection = connection;
    this.port = client.BenchService[PORTS[version]];
    this.url = `http://${hostPort(options.host, options.port)}${PATH}`;
    this.facts = { soap: version, wsse: security };
    this.trust = security === wsse.SIGNATURE ? new wsse.Trust(wsse.secret(options, 'ca.crt')) : null;
    this.plain = null;
    this.raw = null;
  }

  static async create(options) {
    const version = options.registered.variant.soap;
    if (!PORTS[version]) throw new Error(`unknown SOAP version ${version}`);
    const security = wsse.securityOf(options);
    const connection = transport();
    const url = `http://${hostPort(options.host, options.port)}${PATH}`;
    const client = await soap.createClientAsync(WSDL_FILE, clientOptions(version, url, connection.request));
    const made = new SoapClient(options, version, security, client, connection);
    if (security !== 'none') client.setSecurity(made.credential());
    return made;
  }

  credential({ passwordSuffix = '', signerName = 'client' } = {}) {
    if (this.security === wsse.USERNAME_TOKEN) {
      const { username, password } = wsse.credential(this.options);
      return new soap.WSSecurity(username, password + passwordSuffix, { passwordType: 'PasswordDigest', hasTimeStamp: true, hasNonce: true, hasTokenCreated: true });
    }
    return wsse.signer(this.options, signerName);
  }

  invoke(port, name, args) {
    return new Promise((resolve, reject) => {
      port[name](args, (error, result, rawResponse) => {
        if (error) reject(error);
        else resolve([result, rawResponse]);
      });
    });
  }

  async call(operation, args) {
    const entry = TABLE.get(operation.name);
    if (!entry) throw new Error(`SOAP has no ${operation.name}`);
    const message = {};
    for (let i = 0; i < args.length; i++) message[entry.params[i][0]] = entry.params[i][1](args[i]);
    let result;
    let raw;
    try {
      [result, raw] = await this.invoke(this.port, operation.name, message);
    } catch (e) {
      throw benchErrorOf(e);
    }
    if (this.trust) wsse.verifyAnswer(typeof raw === 'string' ? raw : this.client.lastResponse, this.trust);
    return entry.read((result || {}).result);
  }

  // Attacks (harness/attacks.js): the call of `operation` with the defect, built from node-soap's own messages.
  async attack(attack, operation, args) {
    if (this.security === 'none') throw new Error('attacks need a WS-Security variant');
    if (attack === 'wrong-password' && this.security !== wsse.USERNAME_TOKEN) throw new Error(`${attack} needs a UsernameToken variant`);
    if ((attack === 'tampered-body' || attack === 'unknown-certificate') && this.security !== wsse.SIGNATURE) throw new Error(`${attack} needs a signing variant`);
    const base = await this.unsecured(operation, args);
    if (attack === 'missing-security-header') return base.refusal;
    const build = {
      'expired-timestamp': () => withClock(EXPIRED_SHIFT_MS, () => this.secure(base.xml, this.credential())),
      'replayed-message': () => this.secure(base.xml, this.credential()),
      'wrong-password': () => this.secure(base.xml, this.credential({ passwordSuffix: '-wrong' })),
      'tampered-body': () => {
        const signed = this.secure(base.xml, this.credential());
        const from = `>${args[0]}<`;
        if (signed.split(from).length !== 2) throw new Error(`cannot find the argument ${JSON.stringify(args[0])} once in the signed body`);
        return signed.replace(from, '>tampered<');
      },
      'unknown-certificate': () => this.secure(base.xml, this.credential({ signerName: 'rogue-client' })),
    }[attack];
    if (!build) throw new Error(`unknown attack ${attack}`);
    const message = build();
    if (attack === 'replayed-message') {
      const first = await this.post(operation, message);
      if (first !== null) throw new Error(`the first copy was already refused: ${first}`);
    }
    return this.post(operation, message);
  }

  // The operation's message as node-soap writes it without security, and the server's answer to it (the
  // missing-security-header attack: a secured server refuses it).
  async unsecured(operation, args) {
    if (!this.plain) {
      const connection = transport();
      this.plain = await soap.createClientAsync(WSDL_FILE, clientOptions(this.version, this.url, connection.request));
      this.plainConnection = connection;
    }
    const entry = TABLE.get(operation.name);
    const message = {};
    for (let i = 0; i < args.length; i++) message[entry.params[i][0]] = entry.params[i][1](args[i]);
    let refusal = null;
    try {
      await this.invoke(this.plain.BenchService[PORTS[this.version]], operation.name, message);
    } catch (e) {
      refusal = `refused: ${benchErrorOf(e).message}`;
    }
    return { xml: this.plain.lastRequest, refusal };
  }

  secure(xml, credential) {
    const key = (/<(\w+):Envelope/.exec(xml) || [null, 'soap'])[1];
    let envelope = xml.includes(`</${key}:Header>`) ? xml : xml.replace(`<${key}:Body`, `<${key}:Header></${key}:Header><${key}:Body`);
    if (typeof credential.postProcess === 'function') return credential.postProcess(envelope, key);
    envelope = envelope.replace(`</${key}:Header>`, `${credential.toXML()}</${key}:Header>`);
    return envelope;
  }

  // Sends a message as it is; the refusal seen, or null when the server answered it.
  async post(operation, message) {
    if (!this.raw) this.raw = new HttpClient(this.options.host, this.options.port, PATH);
    let answer;
    try {
      answer = await this.raw.post(message, 'text/xml; charset=utf-8', { SOAPAction: `"urn:rpcmatrix:bench:${operation.name}"` });
    } catch (e) {
      return `connection closed: ${e.message}`;
    }
    const text = answer.body.toString('utf8');
    const faultMatch = /<(?:\w+:)?faultstring>([\s\S]*?)<\/(?:\w+:)?faultstring>/.exec(text) || /<(?:\w+:)?Text[^>]*>([\s\S]*?)<\/(?:\w+:)?Text>/.exec(text);
    if (/<(?:\w+:)?Fault[\s>]/.test(text)) {
      const code = /<(?:\w+:)?faultcode>([\s\S]*?)<\//.exec(text);
      return `SOAP Fault ${code ? code[1].trim() : ''}: ${faultMatch ? faultMatch[1].trim() : ''}`;
    }
    if (answer.status !== 200) return `HTTP ${answer.status} without a SOAP Fault`;
    return null;
  }

  // --connection per-call: the client node-soap built from the WSDL kept (built per call, it would time the WSDL's
  // processing, not a connection), its requests through an agent that keeps no connection, so each call connects
  // anew; the connection kept so far (the connect's, the vectors') is closed now.
  closeEachConnection() {
    const kept = this.connection.agent;
    this.connection.agent = new NoDelayAgent({ keepAlive: false });
    this.connection.request.defaults.httpAgent = this.connection.agent;
    kept.destroy();
  }

  async pingAfterAttack() {
    this.connection.agent.destroy(); // the next call opens a new connection
    await this.call(BY_NAME.ping, []);
  }

  async publishedMetadata() {
    const connection = transport();
    try {
      const published = await soap.createClientAsync(`${this.url}?wsdl`, { ...clientOptions(this.version, this.url, connection.request), disableCache: true });
      const description = published.describe();
      // the contract's service and port, under whatever names the server's WSDL gives them
      const wanted = OPERATIONS.filter((op) => !op.isStream).map((op) => op.name);
      const ports = [];
      for (const [serviceName, service] of Object.entries(description)) {
        for (const [portName, port] of Object.entries(service)) ports.push([serviceName, portName, Object.keys(port)]);
      }
      const found = ports.find(([, portName, names]) => portName === PORTS[this.version] && wanted.every((n) => names.includes(n)))
        || ports.find(([, , names]) => wanted.every((n) => names.includes(n)));
      if (!found) {
        return { consumable: false, reason: `node-soap read the WSDL at ?wsdl but no port of it has the contract's operations (${ports.map(([sv, p, names]) => `${sv}/${p}: ${names.length} operations`).join('; ') || 'no ports'})` };
      }
      const [serviceName, portName, operations] = found;
      if (this.security !== 'none') published.setSecurity(this.client.security);
      await this.invoke(published[serviceName][portName], 'ping', {});
      return { consumable: true, reason: `node-soap built a client from ?wsdl (${serviceName}/${portName}, ${operations.length} operations) and pinged through it` };
    } catch (e) {
      return { consumable: false, reason: `node-soap cannot build a working client from ?wsdl: ${e.message}` };
    } finally {
      connection.agent.destroy();
    }
  }

  close() {
    this.connection.agent.destroy();
    if (this.plainConnection) this.plainConnection.agent.destroy();
    if (this.raw) this.raw.close();
  }
}

function connect(options) {
  return SoapClient.create(options);
}

module.exports = { connect, withClock, transport };
