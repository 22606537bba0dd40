// GeckoSCRIPT built-ins (public methods of GeckoCIRCUITS' AbstractGeckoCustom) that pesim does not
// provide: a script calling one stops with an error naming the function as GeckoSCRIPT's, rather
// than as an unknown name.
export const UNSUPPORTED_GECKO_FUNCTIONS = new Set([
  'doOperation', 'setLossFile', 'setNonLinear',
  'createComponent', 'create', 'createConnector', 'deleteComponent', 'delete', 'deleteAllComponents', 'setPosition',
  'getPosition', 'rotate', 'setOrientation', 'setInputNodeName', 'setOutputNodeName', 'getInputNodeName',
  'getOutputNodeName', 'setComponentName', 'getSpecialElements', 'setWorksheetSize', 'getWorksheetSize', 'importFromFile',
]);
