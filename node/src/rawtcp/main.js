'use strict';
const { mainFor } = require('../harness/main');

mainFor('rawtcp', (o) => require('./server').start(o), (o) => require('./client').connect(o));
