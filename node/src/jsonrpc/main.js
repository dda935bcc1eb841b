'use strict';
const { mainFor } = require('../harness/main');

mainFor('jsonrpc', (o) => require('./server').start(o), (o) => require('./client').connect(o));
