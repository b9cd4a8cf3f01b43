/* The script of assay serve's pages, served as /assets/serve.js (the pages'
 * policy allows scripts from the server itself only): it polls
 * /api/v1/state and reloads the page when the store's generation moves,
 * and sends the ack form as JSON with the token typed into it (kept in the
 * page only: no cookie, no storage). */
const char serve_script[] =
    "(function(){var d=document,g=d.documentElement.getAttribute('data-generation');\n"
    "function poll(){fetch('/api/v1/state',{cache:'no-store'}).then(function(r){\n"
    "return r.json();}).then(function(s){if(s.generation!==g)location.reload();})\n"
    ".catch(function(){});}\n"
    "setInterval(poll,5000);\n"
    "var f=d.getElementById('ack');\n"
    "if(f)f.addEventListener('submit',function(ev){ev.preventDefault();\n"
    "var out=d.getElementById('ack-result'),body={series:f.getAttribute('data-series'),\n"
    "revision:f.elements.revision.value,kind:f.elements.kind.value,\n"
    "note:f.elements.note.value};\n"
    "fetch('/api/v1/annotations',{method:'POST',headers:{'Content-Type':'application/json',\n"
    "'Authorization':'Bearer '+f.elements.token.value},body:JSON.stringify(body)})\n"
    ".then(function(r){return r.json().then(function(j){return [r.status,j];});})\n"
    ".then(function(a){if(a[0]===201)location.reload();else out.textContent=a[0]+': '+\n"
    "(a[1].error||'refused');}).catch(function(e){out.textContent=String(e);});});\n"
    "d.documentElement.setAttribute('data-serve-js','ready');})();\n";
