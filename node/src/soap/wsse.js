'use strict';
// WS-Security for the wss-* variants (idl/protocols.json): the checks a server makes before node-soap sees
// a request, and a client makes on a signed answer, over the raw XML with xml-crypto (XML-DSig, exclusive
// C14N) and @xmldom/xmldom; answers are signed with node-soap's own WSSecurityCert. A UsernameToken's
// password digest is Base64(SHA-1(nonce + created + password)); a signature must be made with the key of
// the BinarySecurityToken's certificate, that certificate issued by the set-up CA and within its validity,
// and cover the envelope's one Body and the Timestamp. A nonce or signature value seen before is a replay.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { DOMParser } = require('@xmldom/xmldom');
const { SignedXml } = require('xml-crypto');
const { WSSecurityCert } = require('soap');

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const TIMESTAMP_TTL_MS = 5 * 60 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000; // tolerated between the two sides' clocks (WSS4J's default)
const USERNAME_TOKEN = 'username-token';
const SIGNATURE = 'x509-signature';

class SecurityRefused extends Error {}

function secret(options, name) {
  if (!options.secrets) throw new Error('--secrets is required for WS-Security');
  return fs.readFileSync(path.join(options.secrets, name));
}

function credential(options) {
  return JSON.parse(secret(options, 'username-token.json').toString('utf8'));
}

// The variant's security, from the registry: username-token or x509-signature.
function securityOf(options) {
  const security = options.registered.variant.security || 'none';
  if (security === 'none' || security === USERNAME_TOKEN || security === SIGNATURE) return security;
  throw new Error(`WS-Security variant ${security} is not implemented here`);
}

// node-soap's signer with NAME.key / NAME.crt: RSA-SHA256, SHA-256 digests, exclusive C14N over Body and
// Timestamp, wsu:Id attributes, the certificate in a BinarySecurityToken; one per key for the process's life.
// WSSecurityCert signs no nonce: its Timestamp has whole seconds and its wsu:Ids count from _0 in each
// instance, so two instances signing the same Body within a second make the same SignatureValue, which a
// server's replay cache refuses. One instance's count goes on, so its signatures differ.
const signers = new Map();

function signer(options, name) {
  const key = `${options.secrets}\u0000${name}`;
  if (!signers.has(key)) signers.set(key, newSigner(options, name));
  return signers.get(key);
}

function newSigner(options, name) {
  const made = new WSSecurityCert(secret(options, `${name}.key`), secret(options, `${name}.crt`), '', {
    hasTimeStamp: true, signatureAlgorithm: RSA_SHA256, digestAlgorithm: SHA256,
    signerOptions: { prefix: 'ds', idMode: 'wssecurity' },
  });
  // node-soap 1.6.1's Client decides whether to write a soap:Header by calling security.toXML(), which
  // WSSecurityCert lacks (TypeError on every call without other headers); postProcess then needs that
  // Header to insert the wsse:Security into. A blank toXML() gives it the empty Header and nothing else.
  made.toXML = () => ' ';
  return made;
}

function children(node, ns, local) {
  const out = [];
  for (let c = node ? node.firstChild : null; c; c = c.nextSibling) {
    if (c.nodeType === 1 && c.localName === local && (ns === null || c.namespaceURI === ns)) out.push(c);
  }
  return out;
}

function child(node, ns, local) {
  return children(node, ns, local)[0] || null;
}

function textOf(node) {
  return node ? (node.textContent || '').trim() : '';
}

function parse(xml) {
  if (/<!DOCTYPE/i.test(xml)) throw new SecurityRefused('a document type declaration is not taken');
  const errors = [];
  const document = new DOMParser({ errorHandler: { warning() {}, error: (e) => errors.push(e), fatalError: (e) => errors.push(e) } }).parseFromString(xml, 'text/xml');
  if (errors.length || !document || !document.documentElement) throw new SecurityRefused(`not XML: ${errors[0] || 'no document element'}`);
  return document;
}

function envelopeParts(document) {
  const envelope = document.documentElement;
  if (envelope.localName !== 'Envelope') throw new SecurityRefused('not a SOAP Envelope');
  const bodies = children(envelope, envelope.namespaceURI, 'Body');
  if (bodies.length !== 1) throw new SecurityRefused(`an envelope with ${bodies.length} Body elements`);
  const header = child(envelope, envelope.namespaceURI, 'Header');
  return { envelope, header, body: bodies[0] };
}

function securityHeader(header) {
  const security = child(header, WSSE, 'Security');
  if (!security) throw new SecurityRefused('no wsse:Security header');
  return security;
}

function moment(text, what) {
  if (!text) throw new SecurityRefused(`${what} missing`);
  const value = Date.parse(text);
  if (Number.isNaN(value)) throw new SecurityRefused(`${what} is not an xsd:dateTime: ${JSON.stringify(text)}`);
  return value;
}

function checkTimestamp(security, now = Date.now()) {
  const stamp = child(security, WSU, 'Timestamp');
  if (!stamp) throw new SecurityRefused('no wsu:Timestamp in the security header');
  const created = moment(textOf(child(stamp, WSU, 'Created')), 'Timestamp/Created');
  const expires = moment(textOf(child(stamp, WSU, 'Expires')), 'Timestamp/Expires');
  if (expires <= now) throw new SecurityRefused(`the message expired at ${new Date(expires).toISOString()}`);
  if (created > now + CLOCK_SKEW_MS) throw new SecurityRefused('the message was created in the future');
  return stamp;
}

// The set-up CA: a signer's certificate must be issued by it and be within its validity.
class Trust {
  constructor(caPem) {
    this.ca = new crypto.X509Certificate(caPem);
  }

  check(certificate) {
    if (!certificate.checkIssued(this.ca) || !certificate.verify(this.ca.publicKey)) {
      throw new SecurityRefused(`the signer's certificate (${certificate.subject.replace(/\n/g, ', ')}) is not issued by the trusted CA`);
    }
    const now = Date.now();
    if (now < Date.parse(certificate.validFrom) || now > Date.parse(certificate.validTo)) {
      throw new SecurityRefused("the signer's certificate is outside its validity period");
    }
  }
}

function idOf(node) {
  return node ? node.getAttributeNS(WSU, 'Id') || null : null;
}

function countIds(document, id) {
  let count = 0;
  const all = document.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    const attributes = all[i].attributes;
    for (let a = 0; a < attributes.length; a++) {
      if (attributes[a].localName === 'Id' && attributes[a].value === id) count++;
    }
  }
  return count;
}

// Checks the envelope's signature; returns the SignatureValue (what a replay cache remembers).
function verifySignature(xml, document, parts, security, trust) {
  const token = child(security, WSSE, 'BinarySecurityToken');
  if (!token || !textOf(token)) throw new SecurityRefused("no wsse:BinarySecurityToken (signer's certificate)");
  let certificate;
  try {
    certificate = new crypto.X509Certificate(Buffer.from(textOf(token).replace(/\s+/g, ''), 'base64'));
  } catch (e) {
    throw new SecurityRefused(`the BinarySecurityToken is not an X.509 certificate: ${e.message}`);
  }
  trust.check(certificate);
  const signature = child(security, DS, 'Signature');
  if (!signature) throw new SecurityRefused('no ds:Signature in the security header');
  const signedInfo = child(signature, DS, 'SignedInfo');
  const uris = new Set(children(signedInfo, DS, 'Reference').map((r) => (r.getAttribute('URI') || '').replace(/^#/, '')));
  const stamp = child(security, WSU, 'Timestamp');
  for (const [name, node] of [['Body', parts.body], ['Timestamp', stamp]]) {
    const id = idOf(node);
    if (!id || !uris.has(id)) throw new SecurityRefused(`the signature does not cover the ${name}`);
    if (countIds(document, id) !== 1) throw new SecurityRefused(`the ${name}'s wsu:Id is not unique`);
  }
  const check = new SignedXml({ publicCert: certificate.toString(), idAttributes: ['Id'] });
  check.loadSignature(signature);
  let valid;
  try {
    valid = check.checkSignature(xml);
  } catch (e) {
    throw new SecurityRefused(`the signature does not verify (${e.message})`);
  }
  if (!valid) throw new SecurityRefused('the signature does not verify');
  return textOf(child(signature, DS, 'SignatureValue'));
}

// What was seen (a nonce, a signature value) until it could no longer pass the freshness check; entries
// expire in the order they came, so each call drops the expired ones from the front.
class ReplayCache {
  constructor(keepMs) {
    this.keepMs = keepMs;
    this.seen = new Map();
  }

  remember(key, now = Date.now()) {
    for (const [k, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(k);
    }
    if (this.seen.has(key)) throw new SecurityRefused('the message replays one already received');
    this.seen.set(key, now + this.keepMs);
  }
}

// The server's checks of one request, by variant.
class Guard {
  constructor(options) {
    this.security = securityOf(options);
    this.replays = new ReplayCache(TIMESTAMP_TTL_MS + 2 * CLOCK_SKEW_MS);
    if (this.security === USERNAME_TOKEN) this.credential = credential(options);
    if (this.security === SIGNATURE) {
      this.trust = new Trust(secret(options, 'ca.crt'));
      this.answerSigner = signer(options, 'server');
    }
  }

  check(xml) {
    const document = parse(xml);
    const parts = envelopeParts(document);
    const security = securityHeader(parts.header);
    checkTimestamp(security);
    if (this.security === USERNAME_TOKEN) this.replays.remember(`nonce:${this.checkUsername(security)}`);
    else this.replays.remember(`signature:${verifySignature(xml, document, parts, security, this.trust)}`);
  }

  checkUsername(security) {
    const token = child(security, WSSE, 'UsernameToken');
    if (!token) throw new SecurityRefused('no wsse:UsernameToken');
    const password = child(token, WSSE, 'Password');
    const nonce = textOf(child(token, WSSE, 'Nonce'));
    const createdText = textOf(child(token, WSU, 'Created'));
    if (!password || !(password.getAttribute('Type') || '').endsWith('#PasswordDigest')) throw new SecurityRefused('the UsernameToken has no password digest');
    if (!nonce || !createdText) throw new SecurityRefused('the UsernameToken has no nonce or no created');
    const created = moment(createdText, 'UsernameToken/Created');
    const now = Date.now();
    if (created < now - TIMESTAMP_TTL_MS - CLOCK_SKEW_MS || created > now + CLOCK_SKEW_MS) throw new SecurityRefused('the UsernameToken is not fresh');
    const expected = crypto.createHash('sha1').update(Buffer.concat([Buffer.from(nonce, 'base64'), Buffer.from(createdText, 'utf8'), Buffer.from(this.credential.password, 'utf8')])).digest();
    const given = Buffer.from(textOf(password), 'base64');
    if (textOf(child(token, WSSE, 'Username')) !== this.credential.username || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      throw new SecurityRefused('the username or the password is wrong');
    }
    return nonce;
  }

  // An answer's envelope without the unsigned Timestamp header node-soap's Server adds to every answer to a
  // request that had one (no option turns it off; a peer that does not process it would have to refuse its
  // mustUnderstand), signed when it is a successful answer of x509-signature.
  answer(xml) {
    xml = xml.replace(/<o:Security [^>]*xmlns:o="http:\/\/docs\.oasis-open\.org\/wss\/[^>]*>[\s\S]*?<\/o:Security>\s*/, '');
    xml = xml.replace(/<(\w+):Header><\/\1:Header>/, '');
    if (this.security !== SIGNATURE || /<(?:\w+:)?Fault[\s>]/.test(xml)) return xml;
    const key = (/<(\w+):Envelope/.exec(xml) || [null, 'soap'])[1];
    let envelope = xml;
    if (!envelope.includes(`</${key}:Header>`)) envelope = envelope.replace(new RegExp(`<${key}:Body`), `<${key}:Header></${key}:Header><${key}:Body`);
    return this.answerSigner.postProcess(envelope, key);
  }
}

// A client's check of a signed answer: a fresh Timestamp, a signature by a certificate of the set-up CA
// over Body and Timestamp. A Fault passes unchecked: a server's refusals cannot be signed for a client it
// has not authenticated.
function verifyAnswer(xml, trust) {
  const document = parse(xml);
  const parts = envelopeParts(document);
  if (child(parts.body, null, 'Fault')) return;
  try {
    const security = securityHeader(parts.header);
    checkTimestamp(security);
    verifySignature(xml, document, parts, security, trust);
  } catch (e) {
    if (e instanceof SecurityRefused) throw new SecurityRefused(`the server's answer: ${e.message}`);
    throw e;
  }
}

function faultEnvelope(code, reason) {
  const escape = (t) => t.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
  return '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" '
    + `xmlns:wsse="${WSSE}"><soap:Body><soap:Fault><faultcode>wsse:${code}</faultcode><faultstring>${escape(reason)}</faultstring>`
    + '</soap:Fault></soap:Body></soap:Envelope>';
}

module.exports = {
  Guard, Trust, SecurityRefused, verifyAnswer, faultEnvelope, signer, credential, secret, securityOf,
  USERNAME_TOKEN, SIGNATURE, WSSE, WSU,
};
