'use strict';
const { mainFor } = require('../harness/main');

mainFor('soap', (o) => require('./server').start(o), (o) => require('./client').connect(o));
