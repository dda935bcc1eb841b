'use strict';
const { mainFor } = require('../harness/main');

mainFor('xmlrpc', (o) => require('./server').start(o), (o) => require('./client').connect(o));
