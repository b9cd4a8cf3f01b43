(function(){var d=document;try{
function key(c){var v=c.getAttribute('data-v');
if(v!==null)return v===''?NaN:parseFloat(v);return c.textContent.trim().toLowerCase();}
function sort(t,i,th){var b=t.tBodies[0],rows=[].slice.call(b.rows),
up=th.getAttribute('aria-sort')!=='ascending';
[].forEach.call(th.parentNode.cells,function(c){c.removeAttribute('aria-sort');});
th.setAttribute('aria-sort',up?'ascending':'descending');
rows.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]),r;
if(typeof x==='number'){if(isNaN(x))return isNaN(y)?0:1;if(isNaN(y))return -1;r=x-y;}
else r=String(x).localeCompare(String(y));return up?r:-r;});
rows.forEach(function(r){b.appendChild(r);});}
[].forEach.call(d.querySelectorAll('table.sortable'),function(t){
[].forEach.call(t.tHead.rows[0].cells,function(th,i){th.tabIndex=0;
th.addEventListener('click',function(){sort(t,i,th);});
th.addEventListener('keydown',function(e){if(e.key==='Enter')sort(t,i,th);});});});
var f=d.getElementById('filter'),o=d.getElementById('outcome'),
n=d.getElementById('shown'),t=d.getElementById('case-table');
if(f&&t){d.getElementById('tools').hidden=false;
var apply=function(){var q=f.value.toLowerCase(),w=o.value,k=0,rows=t.tBodies[0].rows;
for(var j=0;j<rows.length;j++){var r=rows[j],ok=(!w||r.getAttribute('data-o')===w)&&
(!q||r.textContent.toLowerCase().indexOf(q)>=0);r.hidden=!ok;if(ok)k++;}
n.textContent=k+' of '+rows.length+' shown';};
f.addEventListener('input',apply);o.addEventListener('change',apply);apply();}
d.documentElement.setAttribute('data-assay-js','ready');
}catch(e){d.documentElement.setAttribute('data-assay-js','error: '+e.message);
throw e;}})();
