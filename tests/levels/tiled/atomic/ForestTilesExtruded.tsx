<?xml version="1.0" encoding="UTF-8"?>
<tileset name="ForestTilesExtruded" tilewidth="128" tileheight="128" spacing="2" margin="2">
 <image source="ForestTilesExtruded.png" width="512" height="1024"/>
 <tile id="0">
  <objectgroup draworder="index">
   <object x="0" y="0" width="128" height="128"/>
  </objectgroup>
 </tile>
 <tile id="4">
  <objectgroup draworder="index">
   <object x="2" y="35" width="49" height="58"/>
   <object x="52" y="36" width="76" height="90"/>
  </objectgroup>
 </tile>
 <tile id="5">
  <objectgroup draworder="index">
   <object x="2" y="35" width="125" height="90"/>
  </objectgroup>
 </tile>
 <tile id="6">
  <objectgroup draworder="index">
   <object x="0" y="35" width="78" height="91"/>
   <object x="79" y="35" width="46" height="52"/>
  </objectgroup>
 </tile>
 <tile id="10">
  <objectgroup draworder="index">
   <object x="0" y="0" width="128" height="128"/>
  </objectgroup>
 </tile>
 <tile id="11">
  <objectgroup draworder="index">
   <object x="0" y="0" width="128" height="128"/>
  </objectgroup>
 </tile>
 <tile id="12">
  <objectgroup draworder="index">
   <object x="0" y="0" width="128" height="128"/>
  </objectgroup>
 </tile>
 <tile id="14">
  <objectgroup draworder="index">
   <object x="0" y="0" width="128" height="128"/>
  </objectgroup>
 </tile>
</tileset>
