'use strict';
const { mainFor } = require('../harness/main');

mainFor('hessian', (o) => require('./server').start(o), (o) => require('./client').connect(o));
