'use strict';
const { mainFor } = require('../harness/main');

mainFor('grpc', (o) => require('./server').start(o), (o) => require('./client').connect(o));
