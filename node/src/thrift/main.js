'use strict';
const { mainFor } = require('../harness/main');

mainFor('thrift', (o) => require('./server').start(o), (o) => require('./client').connect(o));
