// Runs the Khronos glTF validator on one .glb or .gltf file and prints its
// report's issues as JSON: node validate.js MODULE_DIR FILE
const validator = require(process.argv[2]);
const fs = require('fs');
const data = new Uint8Array(fs.readFileSync(process.argv[3]));
validator.validateBytes(data, {maxIssues: 50})
	.then((report) => console.log(JSON.stringify(report.issues)))
	.catch((err) => { console.error(err); process.exit(2); });
