'use strict';
// idl/bench.wsdl for one server: bench.xsd inlined in place of its import (so the WSDL published at ?wsdl
// stands on its own), only the port of the server's SOAP version kept, at the server's own address.
const fs = require('node:fs');
const path = require('node:path');

const IDL = path.join(__dirname, '..', '..', '..', 'idl');
const WSDL_FILE = path.join(IDL, 'bench.wsdl');
const TNS = 'urn:rpcmatrix:bench';
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope';
const PORTS = { '1.1': 'BenchSoapPort', '1.2': 'BenchSoap12Port' };

function schema() {
  const xsd = fs.readFileSync(path.join(IDL, 'bench.xsd'), 'utf8');
  return xsd.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '').trim();
}

function document(version, address) {
  const other = version === '1.1' ? PORTS['1.2'] : PORTS['1.1'];
  let text = fs.readFileSync(WSDL_FILE, 'utf8');
  text = text.replace(/<xs:schema>\s*<xs:import[^>]*\/>\s*<\/xs:schema>/, schema());
  text = text.replace(new RegExp(`\\s*<wsdl:port name="${other}"[\\s\\S]*?</wsdl:port>`), '');
  text = text.replace(/location="[^"]*"/g, `location="${address}"`);
  return text;
}

module.exports = { document, WSDL_FILE, TNS, SOAP11, SOAP12, PORTS };
